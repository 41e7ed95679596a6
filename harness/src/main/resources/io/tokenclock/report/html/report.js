(function () {
  "use strict";
  var status = document.getElementById("report-status");
  var errors = [];
  function fail(message) {
    errors.push(String(message));
    status.dataset.errors = String(errors.length);
    status.textContent = "Chart errors: " + errors.join("; ");
  }
  window.addEventListener("error", function (e) { fail(e.message); });
  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22"];
  // viridis, light to dark, for series that are one variable at increasing values (a sweep's loads)
  var sequential = ["#7ad151", "#22a884", "#2a788e", "#414487", "#440154"];
  var data = JSON.parse(document.getElementById("report-data").textContent);
  function seqColour(i, n) {
    if (n <= 1) { return sequential[2]; }
    return sequential[Math.round(i * (sequential.length - 1) / (n - 1))];
  }
  function intSplits(u) {
    var lo = Math.ceil(u.scales.x.min), hi = Math.floor(u.scales.x.max);
    var step = Math.max(1, Math.ceil((hi - lo) / 10));
    var out = [];
    for (var v = lo; v <= hi; v += step) { out.push(v); }
    return out;
  }
  function pctLabel(v) {
    var p = 100 * (1 - 1 / v);
    var digits = v >= 10 ? Math.min(4, Math.max(0, Math.round(Math.log10(v)) - 2)) : 0;
    return p.toFixed(digits) + "%";
  }
  function marksPlugin(marks) {
    return {
      hooks: {
        draw: function (u) {
          var ctx = u.ctx;
          ctx.save();
          ctx.font = Math.round(11 * devicePixelRatio) + "px sans-serif";
          marks.forEach(function (m, i) {
            var x = u.valToPos(m.x, "x", true);
            if (!isFinite(x)) { return; }
            ctx.strokeStyle = "#555";
            ctx.setLineDash([5, 4]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillStyle = "#333";
            ctx.fillText(m.label, x + 4, u.bbox.top + 14 * devicePixelRatio * (1 + i % 3));
          });
          ctx.restore();
        }
      }
    };
  }
  function draw(c) {
    var el = document.getElementById(c.id);
    var width = Math.max(360, Math.min(el.clientWidth || 1000, 1150));
    var series = [{ label: c.xlabel, value: c.pct ? function (u, v) { return v == null ? "-" : pctLabel(v); } : null }];
    c.series.forEach(function (s, i) {
      var colour = c.sequential ? seqColour(i, c.series.length) : palette[i % palette.length];
      var one = { label: s.label, stroke: colour, width: 1.6, spanGaps: true,
        points: { show: !!c.points || !!s.points_only, size: s.points_only ? 8 : 6, fill: colour } };
      if (s.points_only) { one.paths = function () { return null; }; }
      series.push(one);
    });
    var xAxis = { label: c.xlabel };
    if (c.xint) {
      xAxis.splits = intSplits;
      xAxis.values = function (u, splits) { return splits.map(function (v) { return String(v); }); };
    }
    if (c.pct) {
      xAxis.splits = function (u) {
        var out = [];
        for (var v = 1; v <= u.scales.x.max * 1.0001; v *= 10) {
          if (v >= u.scales.x.min * 0.9999) { out.push(v); }
        }
        return out;
      };
      xAxis.values = function (u, splits) { return splits.map(function (v) { return pctLabel(v); }); };
    }
    var opts = {
      title: c.title, width: width, height: 300,
      scales: { x: { time: false, distr: c.xlog ? 3 : 1 }, y: { distr: c.ylog ? 3 : 1 } },
      axes: [xAxis, { label: c.ylabel, size: 60 }],
      series: series,
      plugins: [marksPlugin(c.marks || [])]
    };
    new uPlot(opts, [c.x].concat(c.series.map(function (s) { return s.y; })), el);
    el.dataset.drawn = "1";
  }
  var drawn = 0;
  data.charts.forEach(function (c) {
    try { draw(c); drawn++; } catch (e) { fail(c.id + ": " + e); }
  });
  status.dataset.drawn = String(drawn);
  status.dataset.drawMs = String(Math.round(performance.now()));
  if (errors.length === 0) {
    status.textContent = drawn + " charts drawn; every figure is also in the tables.";
  }
}());
