// Checks a fixture's constructor makes before allocating: a case that cannot fit is skipped, saying why.
#pragma once

namespace cudabench {

/// Throws skip_case unless `bytes` of device memory are free on the current device, with 10% headroom.
void require_device_memory(double bytes);

/// Throws skip_case unless `bytes` of host memory are available, with 20% headroom.
void require_host_memory(double bytes);

}  // namespace cudabench
