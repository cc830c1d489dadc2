// SPDX-License-Identifier: MIT
/* The spe family of the model: in progress; owns no register yet. */
#include "model_family.h"

const struct sim_family sim_spe_family = {
	.name = "spe",
};
