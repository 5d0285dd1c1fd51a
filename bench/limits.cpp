// The suite and the limits family: every family of the suite is shown against the limits (% of limit), so the
// suite measures the library's limits family in every preset where the filter selects it, quick included.
#include "cudabench/limits.hpp"

CB_LIMITS_IN_EVERY_PRESET();
