// SPDX-License-Identifier: MIT
/* The gic family of the model: in progress; owns no register yet. */
#include "model_family.h"

const struct sim_family sim_gic_family = {
	.name = "gic",
};
