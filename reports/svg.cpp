// SVG chart builders.
#include "reports/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "io/format.hpp"
#include "reports/escape.hpp"
#include "results/stats.hpp"

namespace cudabench::reports::svg {
namespace {
const char* palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr double W = 760, H = 360, L = 70, R = 200, T = 30, B = 50;

std::string header(double w, double h, const std::string& title) {
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="11">)"
      R"(<rect width="100%" height="100%" fill="#fff"/><text x="10" y="18" font-size="13" font-weight="bold">{2}</text>)",
      w, h, html_text(fit(title, (w - 20) * 0.8)));  // bold 13px: about 8 px a character
}

/// Evenly spaced values covering [lo, hi] at a step of 1, 2, 2.5 or 5 times a power of ten, about four apart.
std::vector<double> nice_ticks(double lo, double hi) {
  const double raw = (hi - lo) / 4;
  if (!(raw > 0) || !std::isfinite(raw)) return {};
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  double step = 10 * magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  std::vector<double> out;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9 && out.size() < 12; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/// "+5%", "-2.5%", "0%": a change in percent with the digits its tick step needs.
std::string pct_label(double v, double step) {
  const int digits = step >= 1 && std::fabs(step - std::round(step)) < 1e-9 ? 0 : step >= 0.1 ? 1 : 2;
  return v == 0 ? "0%" : fmt::format("{:+.{}f}%", v, digits);
}

/// Up to six run indices whose labels fit side by side over `width` pixels, first and last included: the first
/// label starts at its run, the last ends at its run, the others are centred on theirs.
std::vector<std::size_t> x_ticks(const std::vector<std::string>& labels, std::size_t n, double width) {
  double widest = 0;
  for (const auto& l : labels) widest = std::max(widest, 6.5 * double(l.size()));
  const double step = n > 1 ? width / double(n - 1) : width;
  for (std::size_t k = std::min<std::size_t>(n, 6); k >= 1; --k) {
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t i = k == 1 ? 0 : std::size_t(std::lround(double(j) * double(n - 1) / double(k - 1)));
      if (out.empty() || out.back() != i) out.push_back(i);
    }
    bool fits = true;
    for (std::size_t j = 1; j < out.size(); ++j) {
      // How far the two labels reach towards each other: a whole label from an edge, half from the middle.
      const double reach = (j == 1 ? 1.0 : 0.5) * widest + (j + 1 == out.size() ? 1.0 : 0.5) * widest;
      fits = fits && double(out[j] - out[j - 1]) * step >= reach + 12;
    }
    if (fits || k <= 2) return out;
  }
  return {};
}
}  // namespace

std::string fit(const std::string& text, double width) {
  const std::size_t most = std::size_t(std::max(4.0, width / 6.5));
  if (text.size() <= most) return text;
  // Cut from the middle, where names of one kind differ least (a family in front, parameters or a file behind).
  auto boundary = [&](std::size_t at) {  // not inside a UTF-8 character
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  const std::size_t head = boundary((most - 1) / 2), tail = boundary(text.size() - (most - 1 - (most - 1) / 2));
  return text.substr(0, head) + "\u2026" + text.substr(tail);
}

std::string loglog(const std::string& title, const std::string& x_label, const std::string& y_label,
                   const std::vector<series>& ss) {
  double x0 = std::numeric_limits<double>::max(), x1 = 0, y0 = x0, y1 = 0;
  for (auto& s : ss)
    for (auto [x, y] : s.points)
      if (x > 0 && y > 0) {
        x0 = std::min(x0, x);
        x1 = std::max(x1, x);
        y0 = std::min(y0, y);
        y1 = std::max(y1, y);
      }
  std::string o = header(W, H, title);
  if (x1 <= 0) return o + "<text x=\"20\" y=\"60\">no data</text></svg>";
  double lx0 = std::floor(std::log10(x0)), lx1 = std::ceil(std::log10(x1)), ly0 = std::floor(std::log10(y0)),
         ly1 = std::ceil(std::log10(y1));
  if (lx1 == lx0) lx1 += 1;
  if (ly1 == ly0) ly1 += 1;
  auto px = [&](double x) { return L + (std::log10(x) - lx0) / (lx1 - lx0) * (W - L - R); };
  auto py = [&](double y) { return H - B - (std::log10(y) - ly0) / (ly1 - ly0) * (H - T - B); };
  o += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)", L, T, W - L - R,
                   H - T - B);
  for (double e = lx0; e <= lx1; ++e)
    o += fmt::format(
        R"(<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" stroke="#eee"/><text x="{0}" y="{3}" text-anchor="middle">1e{4}</text>)",
        px(std::pow(10, e)), T, H - B, H - B + 18, int(e));
  for (double e = ly0; e <= ly1; ++e)
    o += fmt::format(
        R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="#eee"/><text x="{3}" y="{4}" text-anchor="end">1e{5}</text>)",
        L, W - R, py(std::pow(10, e)), L - 4, py(std::pow(10, e)) + 4, int(e));
  o += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", L + (W - L - R) / 2, H - 12,
                   html_text(x_label));
  o += fmt::format(R"~(<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">{}</text>)~",
                   T + (H - T - B) / 2, T + (H - T - B) / 2, html_text(y_label));
  for (std::size_t i = 0; i < ss.size(); ++i) {
    const char* colour = palette[i % 10];
    std::string pts;
    auto sorted = ss[i].points;
    std::sort(sorted.begin(), sorted.end());
    for (auto [x, y] : sorted)
      if (x > 0 && y > 0) {
        pts += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
        o += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>)", px(x), py(y), colour);
      }
    o += fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="1.5"/>)", pts, colour);
    o += fmt::format(R"(<rect x="{}" y="{}" width="10" height="10" fill="{}"/><text x="{}" y="{}">{}</text>)",
                     W - R + 10, T + 14 * i, colour, W - R + 24, T + 14 * i + 9, html_text(fit(ss[i].name, R - 30)));
  }
  return o + "</svg>";
}

std::string bars(const std::string& title, const std::vector<std::pair<std::string, double>>& values,
                 const std::string& unit, double reference) {
  const double row = 18, h = T + row * double(values.size()) + 20, left = 230, width = W - left - 80;
  double vmax = reference;
  for (auto& [l, v] : values) vmax = std::max(vmax, v);
  std::string o = header(W, h, title);
  if (vmax <= 0) return o + "</svg>";
  for (std::size_t i = 0; i < values.size(); ++i) {
    double y = T + row * double(i);
    double w = values[i].second / vmax * width;
    o += fmt::format(
        R"(<text x="{}" y="{}" text-anchor="end">{}</text><rect x="{}" y="{}" width="{:.1f}" height="{}" fill="{}"/><text x="{:.1f}" y="{}">{}{}</text>)",
        left - 6, y + 12, html_text(fit(values[i].first, left - 14)), left, y + 2, std::max(w, 0.5), row - 4,
        palette[0], left + w + 4, y + 12,
        unit == "x" ? fmt::format("{:.3f}", values[i].second) : fmt::format("{:.3g}", values[i].second),
        html_text(unit));  // ratios near 1 need their third decimal
  }
  if (reference > 0) {
    double x = left + reference / vmax * width;
    o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#d62728" stroke-dasharray="4 3"/>)",
                     x, T - 4, h - 16);
  }
  return o + "</svg>";
}

std::string ratio_bars(const std::string& title, const std::vector<std::pair<std::string, double>>& values,
                       double min_span_pct) {
  const double row = 18, top = T + 4, h = top + row * double(values.size()) + 34, left = 230, width = W - left - 90;
  auto change_pct = [](double ratio) { return ratio > 0 && std::isfinite(ratio) ? 100 * (ratio - 1) : 0.0; };
  double lo = -min_span_pct, hi = min_span_pct;
  for (const auto& [label, v] : values) {
    lo = std::min(lo, 1.1 * change_pct(v));
    hi = std::max(hi, 1.1 * change_pct(v));
  }
  auto px = [&](double pct) { return left + (pct - lo) / (hi - lo) * width; };
  std::string o = header(W, h, title);
  const std::vector<double> ticks = nice_ticks(lo, hi);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1, axis = h - 30;
  for (double t : ticks)
    o += fmt::format(
        R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#eee"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)",
        px(t), top - 4, axis, axis + 14, pct_label(t, step));
  o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#555" stroke-dasharray="4 3"/>)", px(0),
                   top - 4, axis);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double y = top + row * double(i), c = change_pct(values[i].second), from = std::min(px(0), px(c));
    o += fmt::format(
        R"(<text x="{}" y="{}" text-anchor="end">{}</text><rect x="{:.1f}" y="{}" width="{:.1f}" height="{}" fill="{}"/>)"
        R"(<text x="{}" y="{}">{:.3f}x</text>)",
        left - 6, y + 12, html_text(fit(values[i].first, left - 14)), from, y + 2,
        std::max(std::fabs(px(c) - px(0)), 0.5), row - 4, c > 0 ? palette[3] : palette[2], left + width + 8, y + 12,
        values[i].second);
  }
  return o + "</svg>";
}

std::string spreads(const std::string& title, const std::vector<spread>& rows) {
  const double row = 22, top = 50, h = top + row * double(rows.size()) + 34, left = 300, width = W - left - 40;
  double lo = 1, hi = 1;
  for (auto& r : rows) {
    if (r.base_median <= 0) continue;
    lo = std::min({lo, r.base_min / r.base_median, r.cur_min / r.base_median});
    hi = std::max({hi, r.base_max / r.base_median, r.cur_max / r.base_median});
  }
  lo = std::min(lo, 0.9);
  hi = std::max(hi, 1.1);
  auto px = [&](double v) { return left + (v - lo) / (hi - lo) * width; };
  std::string o = header(W, h, title);
  // The legend on a line of its own under the title, the axis's ticks on a line of their own under the rows.
  o +=
      R"(<rect x="10" y="28" width="10" height="10" fill="#1f77b4"/><text x="24" y="37">baseline</text>)"
      R"(<rect x="90" y="28" width="10" height="10" fill="#ff7f0e"/><text x="104" y="37">current</text>)"
      R"(<line x1="170" x2="190" y1="33" y2="33" stroke="#999" stroke-dasharray="3 3"/><text x="196" y="37">baseline median (1.00x)</text>)";
  o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#999" stroke-dasharray="3 3"/>)", px(1),
                   top - 6, h - 30);
  for (double v : nice_ticks(lo, hi))
    o += fmt::format(
        R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#999"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4:.2f}x</text>)",
        px(v), h - 30, h - 26, h - 14, v);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.base_median <= 0) continue;
    double y = top + row * double(i) + 4;
    auto n = [&](double v) { return px(v / r.base_median); };
    o += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", left - 8, y + 7,
                     html_text(fit(r.label, left - 16)));
    o += fmt::format(
        R"(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#1f77b4" stroke-width="3"/><circle cx="{:.1f}" cy="{}" r="3.5" fill="#1f77b4"/>)",
        n(r.base_min), n(r.base_max), y, y, n(r.base_median), y);
    o += fmt::format(
        R"(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#ff7f0e" stroke-width="3"/><circle cx="{:.1f}" cy="{}" r="3.5" fill="#ff7f0e"/>)",
        n(r.cur_min), n(r.cur_max), y + 7, y + 7, n(r.cur_median), y + 7);
  }
  return o + "</svg>";
}

namespace {
/// A trend's y axis: the band, +-min_span and every point but lone outliers: a point beyond the median by more
/// than 6 robust standard deviations (1.4826 x the median absolute deviation; at least twice min_span) whose
/// neighbours are not beyond on its side. A step that holds for two runs or more is never an outlier; an outlier
/// is drawn clipped at the axis's edge.
std::pair<double, double> trend_axis(const std::vector<double>& pct, double min_span, const trend_marks& marks) {
  std::vector<double> finite;
  for (double v : pct)
    if (std::isfinite(v)) finite.push_back(v);
  double lo = -min_span, hi = min_span;
  if (marks.band_hi > marks.band_lo) {
    lo = std::min(lo, marks.band_lo);
    hi = std::max(hi, marks.band_hi);
  }
  if (finite.empty()) return {lo, hi};
  const double m = cudabench::median(finite);
  std::vector<double> deviations;
  for (double v : finite) deviations.push_back(std::fabs(v - m));
  const double reach = std::max(6 * cudabench::mad_to_stddev * cudabench::median(deviations), 2 * min_span);
  const double fence_lo = m - reach, fence_hi = m + reach;
  auto beyond = [&](std::size_t i, int side) {
    return i < pct.size() && std::isfinite(pct[i]) && (side > 0 ? pct[i] > fence_hi : pct[i] < fence_lo);
  };
  for (std::size_t i = 0; i < pct.size(); ++i) {
    if (!std::isfinite(pct[i])) continue;
    const int side = pct[i] > fence_hi ? 1 : pct[i] < fence_lo ? -1 : 0;
    const bool lone = side != 0 && !(i > 0 && beyond(i - 1, side)) && !beyond(i + 1, side);
    if (lone) continue;
    lo = std::min(lo, pct[i]);
    hi = std::max(hi, pct[i]);
  }
  return {lo, hi};
}

/// A trend's points: each a dot (every one where there are at most 40, else the marked ones and those that link
/// or say something), a link to its commit and a tooltip where `marks` has them, a triangle where a verdict
/// flagged it (up, red: a regression; down, green: an improvement); a point beyond the axis drawn at its edge as a
/// hollow triangle pointing out, its value in its tooltip.
template <typename X, typename Y>
std::string trend_points(const std::vector<double>& pct, const std::vector<std::size_t>& marked,
                         const trend_marks& marks, X px, Y py, std::pair<double, double> axis) {
  std::string o;
  const std::size_t n = pct.size();
  auto at = [](const std::vector<std::string>& v, std::size_t i) { return i < v.size() ? v[i] : std::string(); };
  for (std::size_t i = 0; i < n; ++i) {
    const bool mark = std::find(marked.begin(), marked.end(), i) != marked.end();
    const std::string link = at(marks.links, i), tip = at(marks.tips, i);
    if (!std::isfinite(pct[i])) continue;
    const std::string title = tip.empty() ? "" : "<title>" + html_text(tip) + "</title>";
    std::string dot;
    if (pct[i] > axis.second || pct[i] < axis.first) {
      const double x = px(i), y = py(pct[i]), d = pct[i] > axis.second ? 1 : -1;  // the apex points out
      dot = fmt::format(
          R"(<polygon class="clipped" points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="#fff" stroke="{}" stroke-width="1.5">{}</polygon>)",
          x - 5, y + 3 * d, x + 5, y + 3 * d, x, y - 6 * d, mark ? "#d62728" : "#1f77b4",
          title.empty() ? fmt::format("<title>{:+.1f}% (beyond the axis)</title>", pct[i]) : title);
    } else if (mark || n <= 40 || !link.empty() || !tip.empty()) {
      dot = fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{}" fill="{}">)", px(i), py(pct[i]),
                        mark           ? 4
                        : link.empty() ? 2
                                       : 3,
                        mark ? "#d62728" : "#1f77b4") +
            title + "</circle>";
    }
    o += link.empty() || dot.empty() ? dot : R"(<a href=")" + html_text(link) + R"(">)" + dot + "</a>";
  }
  for (auto [i, regression] : marks.flags)
    if (i < n && std::isfinite(pct[i])) {
      const double x = px(i), y = py(pct[i]), d = regression ? -1 : 1;  // the apex points the way the time moved
      o += fmt::format(
          R"(<polygon class="{}" points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}" stroke="#222" stroke-width="0.5"/>)",
          regression ? "flag-regression" : "flag-improvement", x - 5, y - 9 * d, x + 5, y - 9 * d, x, y - 2 * d,
          regression ? "#d62728" : "#2ca02c");
    }
  return o;
}

/// The y ticks: each in % on the left and, where the run at 0% has a time, that time on the right.
std::string trend_ticks(double lo, double hi, double base_s, double left, double right, const auto& py) {
  const std::vector<double> ticks = nice_ticks(lo, hi);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
  std::string o;
  for (double v : ticks) {
    o += fmt::format(
        R"(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="{3}"/><text x="{4}" y="{5:.1f}" text-anchor="end">{6}</text>)",
        left, right, py(v), v == 0 ? "#bbb" : "#eee", left - 4, py(v) + 4, pct_label(v, step));
    if (base_s > 0 && v > -100)
      o += fmt::format(R"(<text class="value" x="{}" y="{:.1f}">{}</text>)", right + 4, py(v) + 4,
                       html_text(cudabench::format_time(base_s * (1 + v / 100))));
  }
  return o;
}
}  // namespace

std::string trend(const std::string& title, const std::vector<double>& pct, const std::vector<std::string>& x_labels,
                  const std::vector<std::size_t>& marked, double min_span_pct, const trend_marks& marks) {
  const double h = 156, pl = 56, pr = marks.base_s > 0 ? 72 : 24, pt = 34, pb = 32;
  std::string o = header(W, h, title);
  const bool band = marks.band_hi > marks.band_lo;
  const auto axis = trend_axis(pct, min_span_pct, marks);
  double lo = axis.first, hi = axis.second;  // plain variables: the lambdas below capture them (clang 14)
  if (!(hi > lo)) {
    lo = -1;
    hi = 1;
  }
  const std::size_t n = pct.size();
  auto px = [&](std::size_t i) { return n <= 1 ? pl : pl + double(i) / double(n - 1) * (W - pl - pr); };
  auto py = [&](double v) { return h - pb - (std::clamp(v, lo, hi) - lo) / (hi - lo) * (h - pt - pb); };
  o += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)", pl, pt, W - pl - pr,
                   h - pt - pb);
  if (band)
    o += fmt::format(
        R"(<rect class="spread-band" x="{}" y="{:.1f}" width="{}" height="{:.1f}" fill="#2ca02c" fill-opacity="0.12"/>)",
        pl, py(marks.band_hi), W - pl - pr, py(marks.band_lo) - py(marks.band_hi));
  o += trend_ticks(lo, hi, marks.base_s, pl, W - pr, py);
  std::string pts;
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(pct[i])) pts += fmt::format("{:.1f},{:.1f} ", px(i), py(pct[i]));
  o += fmt::format(R"(<polyline points="{}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>)", pts);
  o += trend_points(pct, marked, marks, px, py, {lo, hi});
  const std::vector<std::size_t> at = x_ticks(x_labels, n, W - pl - pr);
  for (std::size_t j = 0; j < at.size() && at[j] < x_labels.size(); ++j) {
    const char* anchor = j == 0 ? "start" : j + 1 == at.size() ? "end" : "middle";
    o += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="{}">{}</text>)", px(at[j]), h - pb + 20, anchor,
                     html_text(x_labels[at[j]]));
  }
  return o + "</svg>";
}

std::string timeline(const std::string& title, const std::vector<lane>& lanes, double span_us) {
  const double row = 20, left = 170, right = 20, top = 48, width = W - left - right;
  const double h = top + row * double(lanes.size()) + 30;
  for (auto& l : lanes)
    for (auto& s : l.slices) span_us = std::max(span_us, s.start_us + s.dur_us);
  if (!(span_us > 0)) span_us = 1;
  auto px = [&](double us) { return left + std::clamp(us, 0.0, span_us) / span_us * width; };
  auto colour = [](const std::string& kind) {
    if (kind == "h2d") return "#1e88e5";
    if (kind == "d2h") return "#e53935";
    if (kind == "kernel") return "#43a047";
    if (kind == "memset") return "#9e9e9e";
    if (kind == "copy") return "#8e24aa";
    return "#ffb300";  // phases
  };
  std::string o = header(W, h, title);
  const std::pair<const char*, const char*> legend[] = {{"h2d", "copy H2D"},    {"kernel", "kernel"},
                                                        {"d2h", "copy D2H"},    {"memset", "memset"},
                                                        {"copy", "other copy"}, {"phase", "host phase"}};
  for (std::size_t i = 0; i < std::size(legend); ++i)
    o += fmt::format(R"(<rect x="{0}" y="26" width="10" height="10" fill="{1}"/><text x="{2}" y="35">{3}</text>)",
                     left + 95.0 * double(i), colour(legend[i].first), left + 95.0 * double(i) + 14, legend[i].second);
  // Time axis: five ticks.
  for (int k = 0; k <= 4; ++k) {
    const double us = span_us * k / 4;
    o += fmt::format(
        R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#eee"/><text x="{0:.1f}" y="{3}" text-anchor="{5}">{4:.4g} us</text>)",
        px(us), top - 4, h - 26, h - 12, us, k == 4 ? "end" : "middle");  // the last one ends at the chart's edge
  }
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double y = top + row * double(i);
    o += fmt::format(
        R"(<g class="lane"><text x="{}" y="{}" text-anchor="end">{}</text><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#ddd"/>)",
        left - 6, y + 14, html_text(fit(lanes[i].name, left - 14)), left, W - right, y + row - 1, y + row - 1);
    for (auto& s : lanes[i].slices) {
      const double x0 = px(s.start_us), x1 = px(s.start_us + s.dur_us);
      o += fmt::format(
          R"(<rect class="op {}" x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}"><title>{} ({:.3g} us at {:.4g} us)</title></rect>)",
          html_text(s.kind), x0, y + 3, std::max(x1 - x0, 0.6), row - 6, colour(s.kind), html_text(s.label), s.dur_us,
          s.start_us);
    }
    o += "</g>";
  }
  return o + "</svg>";
}

}  // namespace cudabench::reports::svg
