/* The map page's script, plain JavaScript: pan and zoom the strategic map through its viewBox, show a clicked
   hex's particulars, and plan a voyage by clicking hexes.

   The plan is the voyages API's: a list of days, each {"kind": "move", "path": [[q, r], ...]} (the hexes entered,
   in order) or {"kind": "patrol"}. The rules (speed, wind, coal, encounter numbers) live on the server: after every
   change the plan goes to POST /api/campaigns/<slug>/voyages/preview/, whose answer fills the table of days, and a
   day longer than the allowance the preview reports is split there. Confirming creates the voyage (POST
   /api/campaigns/<slug>/voyages/) or changes a voyage's standing plan (PATCH /api/voyages/<id>/). */
(function () {
  "use strict";

  var page = document.getElementById("map-page");
  var viewport = document.getElementById("smap-viewport");
  if (!page || !viewport) return;
  var svg = viewport.querySelector("svg");
  if (!svg) return;

  var slug = page.dataset.slug;
  var csrf = page.dataset.csrf;
  var mapData = JSON.parse(document.getElementById("smap-data").textContent);
  var MAX_ALLOWANCE = 4; // the fastest daily rate (a kite with the wind), until the server says otherwise

  // --- the map's hexes, by "q,r" ---------------------------------------------------------------------------------
  var hexInfo = {};
  mapData.hexes.forEach(function (h) { hexInfo[h.q + "," + h.r] = h; });
  var byLabel = {};
  mapData.hexes.forEach(function (h) { byLabel[h.label] = h; });
  var territories = {};
  mapData.territories.forEach(function (t) { territories[t.name] = t; });
  var hexNodes = {};
  svg.querySelectorAll(".smap__hex").forEach(function (g) { hexNodes[g.dataset.q + "," + g.dataset.r] = g; });

  function key(q, r) { return q + "," + r; }
  function centreOf(q, r) {
    var g = hexNodes[key(q, r)];
    return g ? [parseFloat(g.dataset.cx), parseFloat(g.dataset.cy)] : null;
  }

  // --- pan and zoom through the viewBox ----------------------------------------------------------------------------
  var home = svg.getAttribute("viewBox").split(/[\s,]+/).map(parseFloat);
  var view = home.slice();
  function setView(v) {
    var minW = 120, maxW = home[2] * 1.5;
    var w = Math.min(maxW, Math.max(minW, v[2]));
    var h = w * home[3] / home[2];
    view = [v[0] + (v[2] - w) / 2, v[1] + (v[3] - h) / 2, w, h];
    svg.setAttribute("viewBox", view.map(function (n) { return n.toFixed(1); }).join(" "));
  }
  function toMap(clientX, clientY) {
    var m = svg.getScreenCTM();
    if (!m) return [view[0] + view[2] / 2, view[1] + view[3] / 2];
    var p = svg.createSVGPoint();
    p.x = clientX; p.y = clientY;
    var s = p.matrixTransform(m.inverse());
    return [s.x, s.y];
  }
  function zoomAt(factor, point) {
    var w = view[2] * factor, h = view[3] * factor;
    var fx = (point[0] - view[0]) / view[2], fy = (point[1] - view[1]) / view[3];
    var x = point[0] - fx * w, y = point[1] - fy * h;
    var before = view[2];
    setView([x, y, w, h]);
    if (view[2] !== w) { // clamped: keep the point under the pointer anyway
      view[0] = point[0] - fx * view[2]; view[1] = point[1] - fy * view[3];
      setView(view);
    }
    return before !== view[2];
  }
  var CLOSE = 460; // map units across when looking at one place: hexes big enough to click
  function centreOn(q, r) {
    var c = centreOf(q, r);
    if (!c) return;
    var w = Math.min(view[2], CLOSE), h = w * home[3] / home[2];
    setView([c[0] - w / 2, c[1] - h / 2, w, h]);
  }

  var drag = null;
  var suppressClick = false;
  // Two fingers on the map (a phone) pinch to zoom about their midpoint; one finger or the mouse drags.
  var touches = {};
  var pinch = null;
  function touchList() { return Object.keys(touches).map(function (id) { return touches[id]; }); }
  function spread(points) { return Math.hypot(points[0][0] - points[1][0], points[0][1] - points[1][1]); }
  viewport.addEventListener("pointerdown", function (e) {
    if (e.button !== 0) return;
    if (e.pointerType === "touch") {
      touches[e.pointerId] = [e.clientX, e.clientY];
      var points = touchList();
      if (points.length === 2) {
        drag = null;
        pinch = { spread: spread(points) };
        return;
      }
    }
    drag = { x: e.clientX, y: e.clientY, view: view.slice(), moved: false };
  });
  window.addEventListener("pointermove", function (e) {
    if (touches[e.pointerId]) touches[e.pointerId] = [e.clientX, e.clientY];
    if (pinch) {
      var points = touchList();
      if (points.length !== 2) return;
      var now = spread(points);
      if (now > 0 && pinch.spread > 0) {
        zoomAt(pinch.spread / now, toMap((points[0][0] + points[1][0]) / 2, (points[0][1] + points[1][1]) / 2));
        pinch.spread = now;
        pinch.moved = true;
      }
      return;
    }
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    viewport.classList.add("is-dragging");
    var rect = svg.getBoundingClientRect();
    // preserveAspectRatio "meet": one screen pixel is the larger of the two ratios in map units
    var scale = Math.max(drag.view[2] / rect.width, drag.view[3] / rect.height);
    setView([drag.view[0] - dx * scale, drag.view[1] - dy * scale, drag.view[2], drag.view[3]]);
  });
  function release(e) {
    delete touches[e.pointerId];
    if ((drag && drag.moved) || (pinch && pinch.moved)) {
      suppressClick = true;
      setTimeout(function () { suppressClick = false; }, 0);
    }
    if (pinch && touchList().length < 2) pinch = null;
    drag = null;
    viewport.classList.remove("is-dragging");
  }
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  viewport.addEventListener("wheel", function (e) {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? 1 / 1.2 : 1.2, toMap(e.clientX, e.clientY));
  }, { passive: false });
  document.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      var mid = [view[0] + view[2] / 2, view[1] + view[3] / 2];
      if (button.dataset.zoom === "in") zoomAt(1 / 1.4, mid);
      else if (button.dataset.zoom === "out") zoomAt(1.4, mid);
      else setView(home.slice());
    });
  });

  // --- a hex's particulars -------------------------------------------------------------------------------------------
  var details = document.getElementById("hex-details");
  var selected = null;
  function numbersWords(t) {
    if (!t || t.move_through === null) return "no encounter roll";
    return t.move_through + " in 6 moving, " + (t.patrol === null ? "—" : t.patrol + " in 6") + " patrolling";
  }
  function row(dl, term, text) {
    var dt = document.createElement("dt"); dt.textContent = term;
    var dd = document.createElement("dd"); dd.textContent = text;
    dl.appendChild(dt); dl.appendChild(dd);
    return dd;
  }
  function showHex(q, r) {
    var h = hexInfo[key(q, r)];
    if (!h) return;
    if (selected) selected.classList.remove("smap__hex--selected");
    selected = hexNodes[key(q, r)] || null;
    if (selected) selected.classList.add("smap__hex--selected");
    details.textContent = "";
    var dl = document.createElement("dl");
    dl.className = "hex-facts";
    row(dl, "Hex", h.label).dataset.field = "label";
    row(dl, "Terrain", h.base_terrain + (h.canal ? ", " + h.canal + " canal" : "")).dataset.field = "terrain";
    row(dl, "Territory", h.territory).dataset.field = "territory";
    row(dl, "Encounters", numbersWords(territories[h.territory])).dataset.field = "encounters";
    row(dl, "Allegiance", h.allegiance + (h.british ? " (British)" : "")).dataset.field = "allegiance";
    if (h.city) row(dl, "City", h.city).dataset.field = "city";
    if (h.site) row(dl, "Site", h.site).dataset.field = "site";
    if (h.region) row(dl, "Region", h.region).dataset.field = "region";
    details.appendChild(dl);
  }

  viewport.addEventListener("click", function (e) {
    if (suppressClick) return;
    var g = e.target.closest("[data-q]");
    if (!g) return;
    var q = parseInt(g.dataset.q, 10), r = parseInt(g.dataset.r, 10);
    showHex(q, r);
    if (planner.active()) planner.addHex(q, r);
  });

  var gotoForm = document.getElementById("smap-goto");
  gotoForm.addEventListener("submit", function (e) {
    e.preventDefault();
    var h = byLabel[gotoForm.elements.label.value.trim()];
    if (!h) { details.textContent = "No hex " + gotoForm.elements.label.value + " on the map."; return; }
    centreOn(h.q, h.r);
    showHex(h.q, h.r);
    // "Add to route": the keyboard's way to plan, hex by hex.
    if (e.submitter && e.submitter.name === "add" && planner.active()) planner.addHex(h.q, h.r);
  });
  document.querySelectorAll("[data-show-q]").forEach(function (button) {
    button.addEventListener("click", function () {
      var q = parseInt(button.dataset.showQ, 10), r = parseInt(button.dataset.showR, 10);
      centreOn(q, r);
      showHex(q, r);
      viewport.scrollIntoView({ block: "nearest" });
    });
  });

  // --- the voyage planner --------------------------------------------------------------------------------------------
  var planner = (function () {
    var section = document.getElementById("planner");
    var none = { active: function () { return false; }, addHex: function () {} };
    if (!section) return none;
    var shipSelect = document.getElementById("planner-ship");
    if (!shipSelect) return none;
    var status = document.getElementById("planner-status");
    var table = document.getElementById("planner-days");
    var tbody = table.querySelector("tbody");
    var confirmButton = document.getElementById("planner-confirm");
    var buttons = ["planner-add", "planner-patrol", "planner-endday", "planner-undo", "planner-clear", "planner-city",
      "planner-route-city", "planner-home"].map(function (id) { return document.getElementById(id); })
      .filter(function (b) { return b; });
    var layer = svg.querySelector("#smap-planner");
    var line = layer.querySelector(".smap__planner-path");
    var marks = layer.querySelector(".smap__planner-days");

    var state = null; // {ship, voyage, start: [q, r], plan: [...], locked, closed, preview, history: [...]}
    var previewSeq = 0;

    function say(text, isError) {
      status.textContent = text;
      status.classList.toggle("planner__status--error", !!isError);
    }
    function api(method, url, body) {
      var options = { method: method, credentials: "same-origin", headers: { "Accept": "application/json" } };
      if (body !== undefined) {
        options.headers["Content-Type"] = "application/json";
        options.headers["X-CSRFToken"] = csrf;
        options.body = JSON.stringify(body);
      }
      return fetch(url, options).then(function (response) {
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (err) { data = null; }
          return { ok: response.ok, status: response.status, data: data };
        });
      });
    }
    function errorWords(answer) {
      if (answer.status === 404) return "The voyages service did not answer (404).";
      var d = answer.data;
      if (!d) return "The server refused (" + answer.status + ").";
      if (typeof d === "string") return d;
      if (Array.isArray(d)) return d.join(" ");
      if (d.errors && d.errors.length) return d.errors.join(" ");
      // Every refusal has a detail (config/api.py); a bad field's own messages, when there are some, read better.
      var keys = Object.keys(d).filter(function (k) { return k !== "detail"; });
      if (!keys.length) return typeof d.detail === "string" ? d.detail : "The server refused (" + answer.status + ").";
      var words = [];
      keys.forEach(function (k) {
        var v = d[k];
        words.push(Array.isArray(v) ? v.join(" ") : (typeof v === "object" ? JSON.stringify(v) : String(v)));
      });
      return words.join(" ") || "The server refused (" + answer.status + ").";
    }

    function end() {
      for (var i = state.plan.length - 1; i >= 0; i--) {
        var day = state.plan[i];
        if (day.kind === "move" && day.path.length) return day.path[day.path.length - 1];
      }
      return state.start;
    }
    function allowance(index) {
      var days = state.preview && state.preview.days;
      if (days && days[index] && typeof days[index].allowance === "number") return days[index].allowance;
      return MAX_ALLOWANCE;
    }
    // The hexes of a straight line between two hexes, both ends included (cube rounding, as hexgrid.line).
    function distance(a, b) {
      var dq = a[0] - b[0], dr = a[1] - b[1];
      return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
    }
    function cubeRound(fq, fr) {
      var fs = -fq - fr, q = Math.round(fq), r = Math.round(fr), s = Math.round(fs);
      var dq = Math.abs(q - fq), dr = Math.abs(r - fr), ds = Math.abs(s - fs);
      if (dq > dr && dq > ds) q = -r - s; else if (dr > ds) r = -q - s;
      return [q, r];
    }
    function lineBetween(a, b) {
      var n = distance(a, b), out = [];
      var aq = a[0] + 1e-6, ar = a[1] + 2e-6, bq = b[0] + 1e-6, br = b[1] + 2e-6;
      for (var i = 0; i <= n; i++) out.push(cubeRound(aq + (bq - aq) * i / n, ar + (br - ar) * i / n));
      return out;
    }

    function remember() { state.history.push(JSON.stringify({ plan: state.plan, closed: state.closed })); }
    function addStep(h) {
      var last = state.plan[state.plan.length - 1];
      var index = state.plan.length - 1;
      if (last && last.kind === "move" && index >= state.locked && index >= state.closed &&
          last.path.length < allowance(index)) {
        last.path.push(h);
      } else {
        state.plan.push({ kind: "move", path: [h] });
      }
    }
    function addHex(q, r) {
      if (!state) return;
      var from = end();
      if (from[0] === q && from[1] === r) return;
      remember();
      lineBetween(from, [q, r]).slice(1).forEach(function (h) {
        if (hexInfo[key(h[0], h[1])]) addStep(h);
      });
      changed();
    }

    function draw() {
      var points = [], c = centreOf(state.start[0], state.start[1]);
      if (c) points.push(c.join(","));
      marks.textContent = "";
      var ns = "http://www.w3.org/2000/svg";
      var at = state.start;
      state.plan.forEach(function (day, i) {
        if (day.kind === "move") day.path.forEach(function (h) {
          var p = centreOf(h[0], h[1]);
          if (p) points.push(p.join(","));
          at = h;
        });
        var e = centreOf(at[0], at[1]);
        if (!e) return;
        var circle = document.createElementNS(ns, "circle");
        circle.setAttribute("cx", e[0]); circle.setAttribute("cy", e[1]); circle.setAttribute("r", 7);
        circle.setAttribute("fill", day.kind === "patrol" ? "#f7c948" : "#fffaf0");
        circle.setAttribute("stroke", "#b3261e");
        circle.setAttribute("class", "smap__planner-day");
        var text = document.createElementNS(ns, "text");
        text.setAttribute("x", e[0]); text.setAttribute("y", e[1] + 3);
        text.setAttribute("text-anchor", "middle"); text.setAttribute("font-size", "8");
        text.textContent = String(i + 1);
        marks.appendChild(circle); marks.appendChild(text);
      });
      line.setAttribute("points", points.length > 1 ? points.join(" ") : "");
    }

    function cell(tr, text) { var td = document.createElement("td"); td.textContent = text; tr.appendChild(td); return td; }
    function renderTable() {
      tbody.textContent = "";
      var days = (state.preview && state.preview.days) || [];
      state.plan.forEach(function (day, i) {
        var seen = days[i] || {};
        var tr = document.createElement("tr");
        tr.dataset.day = String(i + 1);
        if (i < state.locked) tr.classList.add("is-locked");
        var th = document.createElement("th"); th.scope = "row"; th.textContent = String(i + 1); tr.appendChild(th);
        var orders = day.kind === "patrol" ? "Patrol" : "Sail " + day.path.length + " hex" + (day.path.length === 1 ? "" : "es");
        if (seen.allowance !== undefined && day.kind === "move") orders += " of " + seen.allowance;
        if (i < state.locked) orders += " (ordered)";
        cell(tr, orders);
        var endHex = seen.end || (day.kind === "move" && day.path.length ? day.path[day.path.length - 1] : null);
        cell(tr, seen.end_label || (endHex && hexInfo[key(endHex[0], endHex[1])] ? hexInfo[key(endHex[0], endHex[1])].label : "—"));
        cell(tr, seen.territory || "—");
        cell(tr, seen.encounter_chance || (seen.encounter_number ? seen.encounter_number + " in 6" : "—"));
        cell(tr, seen.coal_after === null || seen.coal_after === undefined ? "—" : String(seen.coal_after));
        var problems = seen.problems || [];
        if (problems.length) tr.classList.add("has-problem");
        cell(tr, problems.join(" "));
        tbody.appendChild(tr);
      });
      table.hidden = state.plan.length === 0;
    }

    // A day the server says is longer than her allowance is split there; the rest starts the next day.
    function rebalance(days) {
      for (var i = state.locked; i < state.plan.length; i++) {
        var day = state.plan[i], seen = days[i];
        if (!seen || day.kind !== "move" || typeof seen.allowance !== "number" || seen.allowance < 1) continue;
        if (day.path.length > seen.allowance) {
          var rest = day.path.splice(seen.allowance);
          state.plan.splice(i + 1, 0, { kind: "move", path: rest });
          return true;
        }
      }
      return false;
    }

    function preview(rounds) {
      var seq = ++previewSeq;
      rounds = rounds || 0;
      if (!state.plan.length) { state.preview = null; renderTable(); confirmButton.disabled = true; say(""); return Promise.resolve(); }
      say("Checking the plan…");
      return api("POST", "/api/campaigns/" + slug + "/voyages/preview/", { ship: state.ship, plan: state.plan, voyage: state.voyage })
        .then(function (answer) {
          if (seq !== previewSeq) return;
          if (!answer.ok || !answer.data) {
            state.preview = null;
            renderTable();
            confirmButton.disabled = true;
            say(errorWords(answer), true);
            return;
          }
          state.preview = answer.data;
          // The server's word on where she starts (her port, or where she is now).
          var start = answer.data.start;
          if (Array.isArray(start) && start.length === 2 && (start[0] !== state.start[0] || start[1] !== state.start[1])) {
            state.start = [start[0], start[1]];
            draw();
          }
          if (rounds < 20 && rebalance(answer.data.days || [])) { draw(); return preview(rounds + 1); }
          renderTable();
          var errors = answer.data.errors || [];
          confirmButton.disabled = !answer.data.valid;
          if (answer.data.valid) say("The plan holds: " + state.plan.length + " day" + (state.plan.length === 1 ? "" : "s") + ". Confirm to give the orders.");
          else say(errors.length ? errors.join(" ") : "The plan has problems: see the days.", true);
        })
        .catch(function () { if (seq === previewSeq) say("The server could not be reached.", true); });
    }

    function changed() {
      draw();
      renderTable();
      confirmButton.disabled = true;
      buttons.forEach(function (b) { b.disabled = !state; });
      return preview();
    }

    function choose() {
      var option = shipSelect.selectedOptions[0];
      previewSeq++;
      if (!option || !option.value) {
        state = null; line.setAttribute("points", ""); marks.textContent = ""; tbody.textContent = "";
        table.hidden = true; confirmButton.disabled = true;
        buttons.forEach(function (b) { b.disabled = true; });
        say("");
        return;
      }
      var ship = parseInt(option.dataset.ship, 10);
      var start = [parseInt(option.dataset.q, 10), parseInt(option.dataset.r, 10)];
      if (option.dataset.voyage) {
        var voyage = parseInt(option.dataset.voyage, 10);
        state = { ship: ship, voyage: voyage, start: start, plan: [], locked: 0, closed: 0, preview: null, history: [] };
        confirmButton.textContent = "Confirm the new orders";
        say("Reading her orders…");
        api("GET", "/api/voyages/" + voyage + "/").then(function (answer) {
          if (!state || state.voyage !== voyage) return;
          if (!answer.ok || !answer.data) { say(errorWords(answer), true); return; }
          state.start = [answer.data.q, answer.data.r];
          state.plan = JSON.parse(JSON.stringify(answer.data.plan || []));
          state.locked = answer.data.plan_locked_days || 0;
          state.closed = state.plan.length;
          centreOn(state.start[0], state.start[1]);
          changed().then(function () {
            if (answer.data.order_deadline && !status.classList.contains("planner__status--error")) {
              say(status.textContent + " The next orders close " + new Date(answer.data.order_deadline).toLocaleString() + ".");
            }
          });
        });
      } else {
        if (isNaN(start[0]) || isNaN(start[1])) {
          state = null;
          say("She lies in no port on this map: the umpire must place her.", true);
          return;
        }
        state = { ship: ship, voyage: null, start: start, plan: [], locked: 0, closed: 0, preview: null, history: [] };
        confirmButton.textContent = "Confirm the voyage";
        centreOn(start[0], start[1]);
        changed();
        say("Click hexes to chart her course.");
      }
    }
    shipSelect.addEventListener("change", choose);

    document.getElementById("planner-patrol").addEventListener("click", function () {
      if (!state) return;
      remember();
      state.plan.push({ kind: "patrol" });
      state.closed = state.plan.length;
      changed();
    });
    document.getElementById("planner-endday").addEventListener("click", function () {
      if (!state) return;
      state.closed = state.plan.length;
      say("The next hex starts day " + (state.plan.length + 1) + ".");
    });
    document.getElementById("planner-undo").addEventListener("click", function () {
      if (!state || !state.history.length) return;
      var was = JSON.parse(state.history.pop());
      state.plan = was.plan; state.closed = was.closed;
      changed();
    });
    document.getElementById("planner-clear").addEventListener("click", function () {
      if (!state) return;
      remember();
      state.plan = state.plan.slice(0, state.locked);
      state.closed = state.plan.length;
      changed();
    });
    function route(query) {
      if (!state) return;
      var url = "/api/campaigns/" + slug + "/voyages/route/?ship=" + state.ship + query +
        (state.voyage ? "&voyage=" + state.voyage : "");
      say("Finding the way…");
      api("GET", url).then(function (answer) {
        if (!answer.ok || !answer.data || !Array.isArray(answer.data.plan)) { say(errorWords(answer), true); return; }
        remember();
        var plan = answer.data.plan;
        // Days already past their deadline stay as ordered; the way found follows them unless it repeats them.
        var locked = state.plan.slice(0, state.locked);
        var repeats = locked.length && JSON.stringify(plan.slice(0, locked.length)) === JSON.stringify(locked);
        state.plan = repeats ? plan : locked.concat(plan);
        state.closed = state.plan.length;
        changed();
      });
    }
    document.getElementById("planner-route-city").addEventListener("click", function () {
      route("&city=" + encodeURIComponent(document.getElementById("planner-city").value));
    });
    document.getElementById("planner-home").addEventListener("click", function () { route("&home=1"); });

    confirmButton.addEventListener("click", function () {
      if (!state || !state.plan.length) return;
      confirmButton.disabled = true;
      var request = state.voyage
        ? api("PATCH", "/api/voyages/" + state.voyage + "/", { plan: state.plan })
        : api("POST", "/api/campaigns/" + slug + "/voyages/", { ship: state.ship, plan: state.plan });
      request.then(function (answer) {
        if (!answer.ok) { confirmButton.disabled = false; say(errorWords(answer), true); return; }
        var name = shipSelect.selectedOptions[0].textContent.split(" at ")[0];
        var words = state.voyage ? "The " + name + "'s new orders stand." : "The " + name + " sails.";
        // Leaving Parhoon the yard mends her first as far as the money goes: say what it did and what stays.
        if (!state.voyage && answer.data && answer.data.repairs && answer.data.repairs.words) {
          words += " " + answer.data.repairs.words;
        }
        try { sessionStorage.setItem("smap-said", words); } catch (err) { /* private mode: no note after reload */ }
        say(words);
        window.location.reload();
      });
    });

    try {
      var said = sessionStorage.getItem("smap-said");
      if (said) { say(said); sessionStorage.removeItem("smap-said"); }
    } catch (err) { /* no storage */ }

    return { active: function () { return !!state; }, addHex: addHex };
  })();
})();
