// Summaries, the Mann-Whitney U test and the throttling rule.
#include "results/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace cudabench {

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  auto mid = v.begin() + v.size() / 2;
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  return (*mid + *std::max_element(v.begin(), mid)) / 2;
}

double lower_median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  auto mid = v.begin() + (v.size() - 1) / 2;
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

summary summarize(std::vector<double> v) {
  summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(ss / double(v.size() - 1)) : 0;
  return s;
}

namespace {
constexpr int max_exact = 10;  // exact enumeration up to this many samples a side

/// Number of arrangements of m a's and n b's with U = u, by the usual recursion, for every m, n up to
/// max_exact: built once, as the detectable change runs the test a dozen times a case.
const std::vector<double>& exact_u_distribution(int m, int n) {
  static const std::vector<std::vector<std::vector<double>>> f = [] {
    std::vector<std::vector<std::vector<double>>> t(max_exact + 1, std::vector<std::vector<double>>(max_exact + 1));
    for (int i = 0; i <= max_exact; ++i)
      for (int j = 0; j <= max_exact; ++j) {
        t[i][j].assign(i * j + 1, 0.0);
        if (i == 0 || j == 0) {
          t[i][j][0] = 1;
          continue;
        }
        for (int u = 0; u <= i * j; ++u) {
          double v = 0;
          if (u - j >= 0 && u - j <= (i - 1) * j) v += t[i - 1][j][u - j];
          if (u <= i * (j - 1)) v += t[i][j - 1][u];
          t[i][j][u] = v;
        }
      }
    return t;
  }();
  return f[m][n];
}

/// Exact two-sided p-value of a rank sum with ties: every way of choosing which `n1` of the pooled values
/// (their doubled mid-ranks in `ranks2`) are the first sample, counted when its rank sum is at least as far
/// from the mean as the observed one. For small samples only (at most max_tied_splits ways).
constexpr double max_tied_splits = 5000;
double exact_tied_p(const std::vector<long>& ranks2, std::size_t n1, long observed2) {
  const std::size_t n = ranks2.size();
  long total2 = 0;
  for (long r : ranks2) total2 += r;
  // Compared times two to stay in integers: |2 n sum - 2 n1 total| against the observed one.
  const auto distance = [&](long sum2) { return std::labs(long(n) * sum2 - long(n1) * total2); };
  const long observed = distance(observed2);
  double extreme = 0, all = 0;
  std::vector<std::size_t> pick(n1);
  for (std::size_t i = 0; i < n1; ++i) pick[i] = i;
  for (;;) {
    long sum2 = 0;
    for (std::size_t i : pick) sum2 += ranks2[i];
    all += 1;
    extreme += distance(sum2) >= observed;
    std::size_t i = n1;  // next combination in lexicographic order
    while (i > 0 && pick[i - 1] == n - n1 + i - 1) --i;
    if (i == 0) break;
    ++pick[i - 1];
    for (std::size_t j = i; j < n1; ++j) pick[j] = pick[j - 1] + 1;
  }
  return extreme / all;
}

double choose(std::size_t n, std::size_t k) {
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * double(n - k + i) / double(i);
  return c;
}
}  // namespace

double normal_p_value(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

double normal_critical(double alpha) {
  double lo = 0, hi = 40;  // normal_p_value falls from 1 at 0; bisection to well below any alpha's need
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    (normal_p_value(mid) > alpha ? lo : hi) = mid;
  }
  return hi;
}

double median_log_stderr(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  std::vector<double> logs;
  for (double x : v) logs.push_back(std::log(x));
  const double m = median(logs);
  std::vector<double> dev;
  for (double l : logs) dev.push_back(std::fabs(l - m));
  return 1.2533 * mad_to_stddev * median(std::move(dev)) / std::sqrt(double(v.size()));
}

double robust_cv(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = median(v);
  if (!(m > 0)) return 0;
  std::vector<double> dev;
  for (double x : v) dev.push_back(std::fabs(x - m));
  return mad_to_stddev * median(std::move(dev)) / m;
}

double student_critical(double alpha, double df) {
  const double z = normal_critical(alpha), z2 = z * z;
  if (!(df > 0)) return std::numeric_limits<double>::infinity();
  const double g1 = (z2 + 1) * z / 4, g2 = ((5 * z2 + 16) * z2 + 3) * z / 96,
               g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  return z + g1 / df + g2 / (df * df) + g3 / (df * df * df);
}

rank_test mann_whitney(const std::vector<double>& a, const std::vector<double>& b) {
  rank_test r;
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return r;
  std::vector<std::pair<double, int>> all;
  all.reserve(n);
  for (double x : a) all.emplace_back(x, 0);
  for (double x : b) all.emplace_back(x, 1);
  std::sort(all.begin(), all.end(), [](auto& l, auto& rr) { return l.first < rr.first; });
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  std::vector<long> ranks2(n);  // doubled mid-ranks, for the exact test with ties
  long rank_sum_a2 = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    double avg_rank = (double(i) + double(j) + 1) / 2;  // ranks are 1-based
    double t = double(j - i);
    if (t > 1) {
      ties = true;
      tie_term += t * t * t - t;
    }
    for (std::size_t k = i; k < j; ++k) {
      ranks2[k] = long(i + j + 1);
      if (all[k].second == 0) {
        rank_sum_a += avg_rank;
        rank_sum_a2 += ranks2[k];
      }
    }
    i = j;
  }
  r.u = rank_sum_a - double(n1) * (n1 + 1) / 2;
  // Few values with ties (timer resolution makes equal medians common): the exact distribution of the
  // tied ranks, where the normal approximation would hide a complete separation of five against five.
  if (ties && choose(n, n1) <= max_tied_splits) {
    r.p_value = std::min(1.0, exact_tied_p(ranks2, n1, rank_sum_a2));
    r.exact = true;
    return r;
  }
  if (!ties && n1 <= max_exact && n2 <= max_exact) {
    const std::vector<double>& dist = exact_u_distribution(int(n1), int(n2));
    double total = std::accumulate(dist.begin(), dist.end(), 0.0);
    int u = int(std::lround(r.u));
    double lower = 0, upper = 0;
    for (int k = 0; k <= u; ++k) lower += dist[k];
    for (int k = u; k < int(dist.size()); ++k) upper += dist[k];
    r.p_value = std::min(1.0, 2 * std::min(lower, upper) / total);
    r.exact = true;
    return r;
  }
  double mu = double(n1) * n2 / 2;
  double var = double(n1) * n2 / 12 * ((n + 1) - tie_term / (double(n) * (n - 1)));
  if (var <= 0) {
    r.p_value = 1;
    return r;
  }
  double z = (std::fabs(r.u - mu) - 0.5) / std::sqrt(var);
  r.p_value = z <= 0 ? 1.0 : std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return r;
}

double min_detectable_change(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
  if (a.size() < 2 || b.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  // Each side normalised to its own median, so only the noise matters; then shift one until the test
  // separates them, on a 0.1% grid (fine enough for a threshold stated in whole percent) up to 1000%.
  const double ma = median(a), mb = median(b);
  if (!(ma > 0) || !(mb > 0)) return std::numeric_limits<double>::quiet_NaN();
  constexpr int steps = 10000;
  std::vector<double> na(a.size()), shifted(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) na[i] = a[i] / ma;
  auto separates = [&](int step) {
    const double s = step * 0.001;
    for (std::size_t i = 0; i < b.size(); ++i) shifted[i] = b[i] / mb * (1 + s);
    return mann_whitney(na, shifted).p_value < alpha;
  };
  // Growing the shift moves every scaled b value up, so U only falls: once it is below its mean the test
  // only grows more certain. The first grid step can still separate from the other side (U above its
  // mean); past it the separating steps form one tail of the grid, found by bisection in O(n log n log steps).
  if (separates(1)) return 0.001;
  if (!separates(steps)) return std::numeric_limits<double>::infinity();
  int lo = 1, hi = steps;  // lo does not separate, hi does
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (separates(mid) ? hi : lo) = mid;
  }
  return hi * 0.001;
}

bool discard_throttled(double clock_mhz, double peak_mhz, double fraction, std::size_t discarded, std::size_t cap) {
  return peak_mhz > 0 && clock_mhz > 0 && clock_mhz < fraction * peak_mhz && discarded < cap;
}

}  // namespace cudabench
