// Tiny SVG chart builders for the self-contained HTML reports (no script, no external resources).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cudabench::reports::svg {

struct series {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y)
};

/// Lines on log-log axes (e.g. time against size), one colour per series, with a legend.
std::string loglog(const std::string& title, const std::string& x_label, const std::string& y_label,
                   const std::vector<series>& s);

/// Horizontal bars, one per label (e.g. speedups); a dashed line marks `reference` when > 0.
std::string bars(const std::string& title, const std::vector<std::pair<std::string, double>>& values,
                 const std::string& unit, double reference);

/// Horizontal bars of ratios (e.g. geomeans current/baseline), each from 1 to its ratio (red above 1, green
/// below), on an axis of change in percent that spans at least +-`min_span_pct` around 1, so that a change of a
/// few percent shows as a bar of its own.
std::string ratio_bars(const std::string& title, const std::vector<std::pair<std::string, double>>& values,
                       double min_span_pct = 5);

/// Per label, the baseline and current spread (min..max line, median dot), relative to the baseline median.
struct spread {
  std::string label;
  double base_min, base_median, base_max;
  double cur_min, cur_median, cur_max;
};
std::string spreads(const std::string& title, const std::vector<spread>& rows);

/// What a trend chart adds to its line: each point a link to its run's commit with a tooltip (its value), the runs
/// a verdict flagged, the band of the case's usual spread, and the time at 0% for the axis's absolute values.
struct trend_marks {
  std::vector<std::string> links;                   ///< per run: the URL its point links to ("" none)
  std::vector<std::string> tips;                    ///< per run: its point's tooltip ("" none)
  std::vector<std::pair<std::size_t, bool>> flags;  ///< runs a verdict flagged: (run, true for a regression)
  double band_lo = 0, band_hi = 0;                  ///< the band in %, shaded where band_hi > band_lo
  double base_s = 0;  ///< the time at 0%: each y tick also says its time on the right (0: none)
};
/// A value over the runs of a trend in percent of a reference (NaN where a run has none): the y axis in % spans
/// at least +-`min_span_pct` (so drift within it stays flat), the band and every point but a lone outlier (drawn
/// clipped at the edge, as a hollow triangle pointing out); the x axis has up to six of `x_labels` (the runs'
/// dates) that fit side by side; `marked` runs are drawn red; `marks` as it says.
std::string trend(const std::string& title, const std::vector<double>& pct, const std::vector<std::string>& x_labels,
                  const std::vector<std::size_t>& marked, double min_span_pct, const trend_marks& marks = {});

/// `text` cut to about `width` pixels of 11px sans-serif: its middle left out, an ellipsis in its place.
std::string fit(const std::string& text, double width);

/// A slice of a timeline lane; `kind` picks its colour: "h2d", "d2h", "kernel", "memset", "copy" (other
/// directions), "phase".
struct slice {
  double start_us = 0, dur_us = 0;
  std::string label;
  std::string kind;
};
struct lane {
  std::string name;
  std::vector<slice> slices;
};

/// Lanes of slices on one time axis from 0 to `span_us` (at least the latest slice's end), with a legend
/// of the operation colours; each slice carries its label as a tooltip.
std::string timeline(const std::string& title, const std::vector<lane>& lanes, double span_us);

}  // namespace cudabench::reports::svg
