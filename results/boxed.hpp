// A value held on the heap, or none: std::optional's interface for a large member that most objects of a type
// lack, so that an object without it costs one pointer rather than the value's size (a million cases in memory).
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace cudabench {

/// An optional `T` held on the heap; copies copy the value (as std::optional's do).
template <typename T>
class boxed {
 public:
  boxed() = default;
  boxed(std::nullopt_t) {}                                   // NOLINT(google-explicit-constructor): as std::optional
  boxed(T v) : value_(std::make_unique<T>(std::move(v))) {}  // NOLINT(google-explicit-constructor)
  boxed(const boxed& o) : value_(o.value_ ? std::make_unique<T>(*o.value_) : nullptr) {}
  boxed(boxed&&) noexcept = default;
  boxed& operator=(const boxed& o) {
    if (this != &o) value_ = o.value_ ? std::make_unique<T>(*o.value_) : nullptr;
    return *this;
  }
  boxed& operator=(boxed&&) noexcept = default;
  ~boxed() = default;

  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }
  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace cudabench
