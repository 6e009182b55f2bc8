#!/usr/bin/env bash
# Install the Debian packages the matrix needs, if any is missing.
#
# Usage: scripts/deps.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

packages=(
	"$PKG" bc bison flex libssl-dev libelf-dev xz-utils make gcc
	gcc-arm-linux-gnueabihf qemu-system-x86 qemu-system-arm
	ccache shellcheck perl git python3 python3-yaml
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

note "installing: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null || die "missing packages (${missing[*]}) and not root: install them by hand"
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null || die "apt-get update failed: cannot install ${missing[*]}"
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]}"
