# Shared by integrations/kvm's scripts (sourced): the kernel's source version and the cache.
# shellcheck shell=sh
#
# The kernel is Debian's linux source package of the newest line Debian 12 reaches through apt:
# bookworm-backports carries it (6.12, the line of Debian 13), so that is the default; the
# release's own 6.1 is the fallback for an archive without backports (KVM_DEB_VERSION=6.1...,
# but the patch series is written against the default and would need porting).
KVM_DEB_VERSION=${KVM_DEB_VERSION:-6.12.95-1~bpo12+1}
default_cache=/var/cache/vperf/kvm
# Without root, a cache under the user's own directory.
mkdir -p "$default_cache" 2>/dev/null && [ -w "$default_cache" ] ||
	default_cache=${XDG_CACHE_HOME:-$HOME/.cache}/vperf/kvm
KVM_CACHE=${KVM_CACHE:-$default_cache}

# kvm_mode_line MODE: what the host says when KVM comes up in MODE (nvhe, protected or vhe; nothing
# for another); kvm_mode_arg MODE: the command line that asks for it. VHE is the default of a PE
# with FEAT_VHE, as the project's QEMU's max: kvm-arm.mode has no value for it (boot.sh).
kvm_mode_line() {
	case "$1" in
	nvhe) echo "kvm \[1\]: Hyp nVHE mode initialized successfully" ;;
	protected) echo "kvm \[1\]: Protected [hn]VHE mode initialized successfully" ;;
	vhe) echo "kvm \[1\]: VHE mode initialized successfully" ;;
	esac
}
kvm_mode_arg() {
	[ "$1" = vhe ] || echo "kvm-arm.mode=$1"
}
