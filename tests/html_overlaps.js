// Injected at the end of a report page by tests/html_render_test.sh: opens every folded section, measures
// each SVG <text>'s box as the browser laid it out, and writes what it found into the page (a <pre
// id="layout-check"> holding JSON), which the test reads from the dumped DOM: how many texts were measured,
// their total width (0: no font rendered them), and each pair that overlaps or text that leaves its chart.
(function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var problems = [], measured = 0, width = 0;
  document.querySelectorAll("svg").forEach(function (svg, chart) {
    var title = svg.querySelector("text") ? svg.querySelector("text").textContent : "";
    var texts = Array.prototype.filter.call(svg.querySelectorAll("text"), function (t) { return t.textContent.trim() !== ""; });
    var boxes = texts.map(function (t) { return t.getBoundingClientRect(); });
    var frame = svg.getBoundingClientRect();
    var where = "chart " + (chart + 1) + " (" + title + ")";
    for (var i = 0; i < boxes.length; i++) {
      var a = boxes[i];
      measured++;
      width += a.width;
      if (a.left < frame.left - 0.5 || a.right > frame.right + 0.5 || a.top < frame.top - 0.5 || a.bottom > frame.bottom + 0.5)
        problems.push(where + ": '" + texts[i].textContent + "' leaves the chart");
      for (var j = i + 1; j < boxes.length; j++) {
        var b = boxes[j];
        var w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 0.5 && h > 0.5) problems.push(where + ": '" + texts[i].textContent + "' overlaps '" + texts[j].textContent + "'");
      }
    }
  });
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = JSON.stringify({ measured: measured, width: width, problems: problems });
  document.body.appendChild(out);
  if (document.currentScript) document.currentScript.remove();  // the dumped DOM holds the page's own elements only
})();
