// Statistics for measuring and comparing: summaries, running moments (what the sampling loop's stopping rule,
// measure/stop_rule.hpp, reads), Mann-Whitney U, the throttling rule.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace cudabench {

struct summary {
  std::size_t n = 0;
  double mean = 0, median = 0, stddev = 0, min = 0, max = 0;
  double cv() const { return mean > 0 ? stddev / mean : 0; }                       ///< spread of one sample
  double rel_stderr() const { return n > 1 ? cv() / std::sqrt(double(n)) : 1.0; }  ///< noise of the mean
};

summary summarize(std::vector<double> v);

/// Mean and variance updated in O(1) per value (Welford), for the stopping rule of the sampling loop.
class running_stats {
 public:
  void add(double x) noexcept {
    ++n_;
    const double d = x - mean_;
    mean_ += d / double(n_);
    m2_ += d * (x - mean_);
  }
  std::size_t count() const noexcept { return n_; }
  double mean() const noexcept { return mean_; }
  double stddev() const noexcept { return n_ > 1 ? std::sqrt(m2_ / double(n_ - 1)) : 0; }
  /// Relative standard error of the mean (1 with fewer than two values: no spread known yet).
  double rel_stderr() const noexcept { return n_ > 1 && mean_ > 0 ? stddev() / mean_ / std::sqrt(double(n_)) : 1.0; }

 private:
  std::size_t n_ = 0;
  double mean_ = 0, m2_ = 0;
};
double median(std::vector<double> v);
/// The lower of the middle pair for an even count (the median for an odd one): a location that one slow
/// value of two does not move, for times whose noise only adds (interference never makes work faster).
double lower_median(std::vector<double> v);

/// Two-sided Mann-Whitney U test, normal approximation with tie and continuity corrections
/// (exact enumeration when both sides have at most 10 samples and there are no ties).
struct rank_test {
  double u = 0;
  double p_value = 1;
  bool exact = false;
};
rank_test mann_whitney(const std::vector<double>& a, const std::vector<double>& b);

/// Smallest relative shift the rank test can reveal given these samples' noise at `alpha`: each side is
/// normalised to its median and one is scaled until the test separates them. NaN with < 2 samples a side;
/// infinity when no shift up to 1000% would be detected (too few samples for this alpha).
double min_detectable_change(const std::vector<double>& a, const std::vector<double>& b, double alpha);

/// A median absolute deviation times this is a standard deviation, for normal values.
inline constexpr double mad_to_stddev = 1.4826;

/// Two-sided p-value of a standard normal statistic z.
double normal_p_value(double z);
/// The z a two-sided normal test needs for significance at `alpha` (2.576 at 0.01).
double normal_critical(double alpha);
/// Robust standard error of log(median) of one side's samples: 1.2533 x 1.4826 x MAD(log x) / sqrt(n), so a
/// single far sample (one slow round of five) hardly widens it. 0 with fewer than two samples.
double median_log_stderr(const std::vector<double>& v);

/// Robust coefficient of variation: 1.4826 x MAD / median, the spread of the bulk of the samples (one far sample
/// of five barely moves it, where it can multiply the CV). 0 with fewer than two samples or a median of 0.
double robust_cv(const std::vector<double>& v);
/// The two-sided critical value of Student's t at `alpha` with `df` degrees of freedom (Cornish-Fisher
/// expansion around the normal one; within 0.5% of the table from 3 degrees of freedom on).
double student_critical(double alpha, double df);

/// Throttled samples discarded at most per repetition: after that a throttled sample is kept, so a GPU that
/// stays throttled is still measured (at the clock it reports).
constexpr std::size_t max_clock_discards = 1000;

/// The throttling rule measurement applies to each sample: discard one taken while the SM clock was under
/// `fraction` of `peak_mhz`, unless `discarded` samples of the repetition have been discarded already (`cap`)
/// or a clock is unknown (0).
bool discard_throttled(double clock_mhz, double peak_mhz, double fraction, std::size_t discarded,
                       std::size_t cap = max_clock_discards);

}  // namespace cudabench
