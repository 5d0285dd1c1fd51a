// RAII owner for cuBLAS / cuDNN handles and descriptors: one handle, destroyed once, move-only.
#pragma once

#include <utility>

#include "kernels/vendor_check.hpp"

namespace kernels {

template <typename Handle, auto Destroy>
class vendor_handle {
 public:
  vendor_handle() = default;
  explicit vendor_handle(Handle h) : h_(h) {}
  vendor_handle(const vendor_handle&) = delete;
  vendor_handle& operator=(const vendor_handle&) = delete;
  vendor_handle(vendor_handle&& o) noexcept : h_(std::exchange(o.h_, Handle{})) {}
  vendor_handle& operator=(vendor_handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, Handle{});
    }
    return *this;
  }
  ~vendor_handle() { reset(); }
  Handle get() const noexcept { return h_; }
  operator Handle() const noexcept { return h_; }

 private:
  void reset() noexcept {
    if (h_) CB_CHECK_NOTHROW(Destroy(h_));
    h_ = Handle{};
  }
  Handle h_{};
};

}  // namespace kernels
