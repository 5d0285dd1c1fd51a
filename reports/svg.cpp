// SVG chart builders.
#include "reports/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "reports/escape.hpp"

namespace cudabench::reports::svg {
namespace {
const char* palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr double W = 760, H = 360, L = 70, R = 200, T = 30, B = 50;

std::string header(double w, double h, const std::string& title) {
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="11">)"
                     R"(<rect width="100%" height="100%" fill="#fff"/><text x="10" y="18" font-size="13" font-weight="bold">{2}</text>)",
                     w, h, html_text(title));
}
}  // namespace

std::string loglog(const std::string& title, const std::string& x_label, const std::string& y_label, const std::vector<series>& ss) {
  double x0 = std::numeric_limits<double>::max(), x1 = 0, y0 = x0, y1 = 0;
  for (auto& s : ss)
    for (auto [x, y] : s.points)
      if (x > 0 && y > 0) { x0 = std::min(x0, x); x1 = std::max(x1, x); y0 = std::min(y0, y); y1 = std::max(y1, y); }
  std::string o = header(W, H, title);
  if (x1 <= 0) return o + "<text x=\"20\" y=\"60\">no data</text></svg>";
  double lx0 = std::floor(std::log10(x0)), lx1 = std::ceil(std::log10(x1)), ly0 = std::floor(std::log10(y0)), ly1 = std::ceil(std::log10(y1));
  if (lx1 == lx0) lx1 += 1;
  if (ly1 == ly0) ly1 += 1;
  auto px = [&](double x) { return L + (std::log10(x) - lx0) / (lx1 - lx0) * (W - L - R); };
  auto py = [&](double y) { return H - B - (std::log10(y) - ly0) / (ly1 - ly0) * (H - T - B); };
  o += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)", L, T, W - L - R, H - T - B);
  for (double e = lx0; e <= lx1; ++e)
    o += fmt::format(R"(<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" stroke="#eee"/><text x="{0}" y="{3}" text-anchor="middle">1e{4}</text>)", px(std::pow(10, e)), T, H - B, H - B + 14, int(e));
  for (double e = ly0; e <= ly1; ++e)
    o += fmt::format(R"(<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="#eee"/><text x="{3}" y="{4}" text-anchor="end">1e{5}</text>)", L, W - R, py(std::pow(10, e)), L - 4, py(std::pow(10, e)) + 4, int(e));
  o += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", L + (W - L - R) / 2, H - 12, html_text(x_label));
  o += fmt::format(R"~(<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">{}</text>)~", T + (H - T - B) / 2, T + (H - T - B) / 2, html_text(y_label));
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
    o += fmt::format(R"(<rect x="{}" y="{}" width="10" height="10" fill="{}"/><text x="{}" y="{}">{}</text>)", W - R + 10,
                     T + 14 * i, colour, W - R + 24, T + 14 * i + 9, html_text(ss[i].name));
  }
  return o + "</svg>";
}

std::string bars(const std::string& title, const std::vector<std::pair<std::string, double>>& values, const std::string& unit,
                 double reference) {
  const double row = 18, h = T + row * double(values.size()) + 20, left = 230, width = W - left - 80;
  double vmax = reference;
  for (auto& [l, v] : values) vmax = std::max(vmax, v);
  std::string o = header(W, h, title);
  if (vmax <= 0) return o + "</svg>";
  for (std::size_t i = 0; i < values.size(); ++i) {
    double y = T + row * double(i);
    double w = values[i].second / vmax * width;
    o += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text><rect x="{}" y="{}" width="{:.1f}" height="{}" fill="{}"/><text x="{:.1f}" y="{}">{:.3g}{}</text>)",
                     left - 6, y + 12, html_text(values[i].first), left, y + 2, std::max(w, 0.5), row - 4, palette[0],
                     left + w + 4, y + 12, values[i].second, html_text(unit));
  }
  if (reference > 0) {
    double x = left + reference / vmax * width;
    o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#d62728" stroke-dasharray="4 3"/>)", x, T - 4, h - 16);
  }
  return o + "</svg>";
}

std::string spreads(const std::string& title, const std::vector<spread>& rows) {
  const double row = 22, h = T + row * double(rows.size()) + 40, left = 300, width = W - left - 40;
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
  o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#999" stroke-dasharray="3 3"/>)", px(1), T, h - 30);
  o += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">baseline median</text><text x="{:.1f}" y="{}">{:.2f}x</text><text x="{:.1f}" y="{}" text-anchor="end">{:.2f}x</text>)",
                   px(1), h - 16, px(lo), h - 16, lo, px(hi), h - 16, hi);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.base_median <= 0) continue;
    double y = T + row * double(i) + 8;
    auto n = [&](double v) { return px(v / r.base_median); };
    o += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", left - 6, y + 6, html_text(r.label));
    o += fmt::format(R"(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#1f77b4" stroke-width="3"/><circle cx="{:.1f}" cy="{}" r="3.5" fill="#1f77b4"/>)",
                     n(r.base_min), n(r.base_max), y, y, n(r.base_median), y);
    o += fmt::format(R"(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#ff7f0e" stroke-width="3"/><circle cx="{:.1f}" cy="{}" r="3.5" fill="#ff7f0e"/>)",
                     n(r.cur_min), n(r.cur_max), y + 7, y + 7, n(r.cur_median), y + 7);
  }
  o += fmt::format(R"(<rect x="{}" y="8" width="10" height="10" fill="#1f77b4"/><text x="{}" y="17">baseline</text><rect x="{}" y="8" width="10" height="10" fill="#ff7f0e"/><text x="{}" y="17">current</text>)",
                   W - 200, W - 186, W - 110, W - 96);
  return o + "</svg>";
}

std::string trend(const std::string& title, const std::vector<double>& values, const std::vector<std::string>& x_labels,
                  const std::vector<std::size_t>& marked) {
  const double h = 220;
  std::string o = header(W, h, title);
  if (values.empty()) return o + "</svg>";
  double lo = *std::min_element(values.begin(), values.end()), hi = *std::max_element(values.begin(), values.end());
  if (hi <= lo) { hi = lo * 1.05 + 1e-12; lo = lo * 0.95; }
  const double pl = 70, pr = 30, pt = 30, pb = 40;
  auto px = [&](std::size_t i) { return values.size() == 1 ? pl : pl + double(i) / double(values.size() - 1) * (W - pl - pr); };
  auto py = [&](double v) { return h - pb - (v - lo) / (hi - lo) * (h - pt - pb); };
  o += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)", pl, pt, W - pl - pr, h - pt - pb);
  o += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{:.3g}</text><text x="{}" y="{}" text-anchor="end">{:.3g}</text>)", pl - 4, py(hi) + 4, hi, pl - 4, py(lo) + 4, lo);
  std::string pts;
  for (std::size_t i = 0; i < values.size(); ++i) pts += fmt::format("{:.1f},{:.1f} ", px(i), py(values[i]));
  o += fmt::format(R"(<polyline points="{}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>)", pts);
  for (std::size_t i = 0; i < values.size(); ++i) {
    bool mark = std::find(marked.begin(), marked.end(), i) != marked.end();
    o += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="{}" fill="{}"><title>{}: {:.4g}</title></circle>)", px(i), py(values[i]),
                     mark ? 5 : 3, mark ? "#d62728" : "#1f77b4", html_text(i < x_labels.size() ? x_labels[i] : ""), values[i]);
  }
  if (!x_labels.empty()) {
    o += fmt::format(R"(<text x="{}" y="{}">{}</text>)", pl, h - 12, html_text(x_labels.front()));
    o += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", W - pr, h - 12, html_text(x_labels.back()));
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
  const std::pair<const char*, const char*> legend[] = {{"h2d", "copy H2D"}, {"kernel", "kernel"}, {"d2h", "copy D2H"},
                                                         {"memset", "memset"}, {"copy", "other copy"}, {"phase", "host phase"}};
  for (std::size_t i = 0; i < std::size(legend); ++i)
    o += fmt::format(R"(<rect x="{0}" y="26" width="10" height="10" fill="{1}"/><text x="{2}" y="35">{3}</text>)", left + 95.0 * double(i),
                     colour(legend[i].first), left + 95.0 * double(i) + 14, legend[i].second);
  // Time axis: five ticks.
  for (int k = 0; k <= 4; ++k) {
    const double us = span_us * k / 4;
    o += fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#eee"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4:.4g} us</text>)",
                     px(us), top - 4, h - 26, h - 12, us);
  }
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double y = top + row * double(i);
    o += fmt::format(R"(<g class="lane"><text x="{}" y="{}" text-anchor="end">{}</text><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#ddd"/>)",
                     left - 6, y + 14, html_text(lanes[i].name), left, W - right, y + row - 1, y + row - 1);
    for (auto& s : lanes[i].slices) {
      const double x0 = px(s.start_us), x1 = px(s.start_us + s.dur_us);
      o += fmt::format(R"(<rect class="op {}" x="{:.2f}" y="{}" width="{:.2f}" height="{}" fill="{}"><title>{} ({:.3g} us at {:.4g} us)</title></rect>)",
                       html_text(s.kind), x0, y + 3, std::max(x1 - x0, 0.6), row - 6, colour(s.kind), html_text(s.label), s.dur_us, s.start_us);
    }
    o += "</g>";
  }
  return o + "</svg>";
}

}  // namespace cudabench::reports::svg
