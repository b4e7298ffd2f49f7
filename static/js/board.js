/* The battle page's board (templates/battles/detail.html): the map zooms and pans inside its frame (the buttons,
 * the wheel, a drag, two fingers), a ship is picked by a click or a tap on her counter, and the open decisions of
 * the orders form are answered on the map: a hex field (a set-up placement) by a click on one of its allowed hexes,
 * a move by clicks on the hexes it should go through, turned into the path's step tokens where the way there is
 * plain (the hex ahead, or one to turn to first) and judged by the server like a pressed step button.
 *
 * Nothing here knows a ruleset: the map is hexgrid's flat-top axial layout (battles/drawing/hexmap.py writes each
 * counter's hex and facing as data-*), a move's section says its plan, the steps the rules accept next and what
 * its tokens do on the map (battles.decision_forms.STEP_GEOMETRY), a hex field lists its hexes as [column, row].
 * Without this script the page is the plain form: the lists and the step buttons post the orders form back.
 */
(function () {
  "use strict";

  const SQRT3 = Math.sqrt(3);
  const DIRECTIONS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]]; // hexgrid.DIRECTIONS: N first, clockwise
  const DRAG = 6; // CSS px a press moves before it is a pan rather than a click
  const MAX_SCALE = 4;
  const SVGNS = "http://www.w3.org/2000/svg";

  // --- hexes (hexgrid.py in a few lines) ------------------------------------------------------------------------

  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  const toOddQ = ([q, r]) => [q, r + (q - (q & 1)) / 2];
  const fromOddQ = ([col, row]) => [col, row - (col - (col & 1)) / 2];
  const pixel = ([q, r], size) => [size * 1.5 * q, size * SQRT3 * (r + q / 2)];
  const neighbour = (hex, d) => {
    const step = DIRECTIONS[((d % 6) + 6) % 6];
    return [hex[0] + step[0], hex[1] + step[1]];
  };
  const directionTo = (from, to) => DIRECTIONS.findIndex((_, d) => same(neighbour(from, d), to));

  function hexAt(x, y, size) {
    const q = ((2 / 3) * x) / size;
    const r = ((-1 / 3) * x + (SQRT3 / 3) * y) / size;
    let [rq, rr, rs] = [Math.round(q), Math.round(r), Math.round(-q - r)];
    const [dq, dr, ds] = [Math.abs(rq - q), Math.abs(rr - r), Math.abs(rs + q + r)];
    if (dq > dr && dq > ds) rq = -rr - rs;
    else if (dr > ds) rr = -rq - rs;
    return [rq, rr];
  }

  function outline(hex, size) {
    const [x, y] = pixel(hex, size);
    const corners = [0, 1, 2, 3, 4, 5].map((i) => {
      const a = (Math.PI / 3) * i;
      return `${(x + size * Math.cos(a)).toFixed(1)} ${(y + size * Math.sin(a)).toFixed(1)}`;
    });
    return `M${corners.join("L")}Z`;
  }

  const json = (text, fallback) => {
    try {
      return JSON.parse(text);
    } catch (error) {
      return fallback;
    }
  };

  // --- one board ------------------------------------------------------------------------------------------------

  let keptView = null; // the view last shown on this page, kept over a live update's new map

  function setUp(section) {
    const frame = section.querySelector(".board__frame");
    const svg = frame && frame.querySelector("svg.hexmap");
    if (!svg) return;
    const size = Number(svg.dataset.size) || 24;
    const cols = Number(svg.dataset.cols);
    const rows = Number(svg.dataset.rows);
    const box = svg.viewBox.baseVal;
    const whole = { x: box.x, y: box.y, w: box.width, h: box.height };
    const info = section.querySelector(".board__info");
    const coarse = window.matchMedia("(pointer: coarse)").matches || window.innerWidth < 640;
    let view = { ...whole };
    let selected = null;
    let moving = null; // the ship whose move the map builds: the last one picked that has one
    let pick = null; // the hex field the map answers now

    document.body.classList.add("board-live");
    section.classList.add("board--live");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    section.querySelector(".board__tools").hidden = false;
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "board__overlay");
    overlay.setAttribute("aria-hidden", "true");
    svg.insertBefore(overlay, svg.querySelector(".hexmap__ships"));

    const say = (words) => {
      if (info) info.textContent = words;
    };
    const counters = () => [...svg.querySelectorAll("g.counter")];
    const counterOf = (ship) => counters().find((c) => c.dataset.ship === ship);
    const moves = () => [...document.querySelectorAll("[data-board-move]")];
    const moveOf = (ship) => moves().find((m) => m.dataset.ship === ship);
    const picks = () => [...document.querySelectorAll("select[data-board-hex]")];
    const onMap = (hex) => {
      const [col, row] = toOddQ(hex);
      return col >= 0 && row >= 0 && col < cols && row < rows;
    };

    // --- the view: the svg's viewBox, always the frame's shape, so the map fills it ----------------------------

    const frameSize = () => [frame.clientWidth || 1, frame.clientHeight || 1];
    const scale = () => frameSize()[0] / view.w;
    const fitScale = () => Math.min(frameSize()[0] / whole.w, frameSize()[1] / whole.h);
    const clampScale = (s) => Math.min(MAX_SCALE, Math.max(Math.min(fitScale(), 1) * 0.9, s));

    // Along one axis: a view narrower than the map never goes past its edge (no blank ground beside a ship at the
    // edge of the map, where Cloudships' courses take them), one wider has the map in its middle.
    const keep = (at, size, start, length) =>
      size >= length ? start + (length - size) / 2 : Math.min(start + length - size, Math.max(start, at));

    function show() {
      view.x = keep(view.x, view.w, whole.x, whole.w);
      view.y = keep(view.y, view.h, whole.y, whole.h);
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].map((v) => v.toFixed(1)).join(" "));
      keptView = { ...view };
    }

    function centreOn(s, cx, cy) {
      const [fw, fh] = frameSize();
      s = clampScale(s);
      view = { x: cx - fw / s / 2, y: cy - fh / s / 2, w: fw / s, h: fh / s };
      show();
    }

    function toMap(clientX, clientY) {
      const rect = svg.getBoundingClientRect();
      return [view.x + ((clientX - rect.left) / rect.width) * view.w, view.y + ((clientY - rect.top) / rect.height) * view.h];
    }

    function zoomAt(factor, clientX, clientY) {
      const rect = svg.getBoundingClientRect();
      const [mx, my] = toMap(clientX, clientY);
      const s = clampScale(scale() * factor);
      const [fw, fh] = frameSize();
      view = { w: fw / s, h: fh / s, x: 0, y: 0 };
      view.x = mx - ((clientX - rect.left) / rect.width) * view.w;
      view.y = my - ((clientY - rect.top) / rect.height) * view.h;
      show();
    }

    function zoomCentre(factor) {
      const rect = svg.getBoundingClientRect();
      zoomAt(factor, rect.left + rect.width / 2, rect.top + rect.height / 2);
    }

    function fit() {
      centreOn(fitScale(), whole.x + whole.w / 2, whole.y + whole.h / 2);
    }

    // Readable counters at first (a ship's counter some 33 px across, 45 on a phone), round what matters now.
    function start() {
      const s = Math.max(fitScale(), coarse ? 1.5 : 1.1);
      if (s <= fitScale() * 1.001) return fit(); // the whole map shows at a readable size
      const spots = focusSpots();
      if (!spots.length) return centreOn(s, whole.x + whole.w / 2, whole.y + whole.h / 2);
      const [fw, fh] = frameSize();
      const xs = spots.map((p) => p[0]);
      const ys = spots.map((p) => p[1]);
      const fits = Math.max(...xs) - Math.min(...xs) < fw / s - 2 * size && Math.max(...ys) - Math.min(...ys) < fh / s - 2 * size;
      // All of them where they fit in the frame, else the first (the ship an order is for, or one of the side's).
      if (fits) centreOn(s, (Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2);
      else centreOn(s, ...spots[0]);
    }

    // What the view opens on: the ship picked, else the hexes offered for a set-up, else the ship the first order
    // is for, else the viewer's side's ships, else every ship.
    function focusSpots() {
      const at = (c) => [Number(c.dataset.cx), Number(c.dataset.cy)];
      if (selected && counterOf(selected)) return [at(counterOf(selected))];
      if (pick) return pickSpots();
      const asked = [...document.querySelectorAll("#decisions section.decision[data-ship]")]
        .map((d) => counterOf(d.dataset.ship))
        .filter(Boolean);
      if (asked.length) return asked.map(at);
      const own = counters().filter((c) => c.dataset.side === section.dataset.side);
      return (own.length ? own : counters()).map(at);
    }

    function pickSpots() {
      return pick ? allowed(pick).map((spot) => pixel(fromOddQ(spot), size)) : [];
    }

    // --- pointers: drag to pan, two fingers to zoom, a press that does not move is a click -----------------------

    const pointers = new Map();
    let press = null;
    let pinch = null;

    frame.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      try {
        frame.setPointerCapture(event.pointerId);
      } catch (error) {
        /* a synthetic pointer has nothing to capture */
      }
      if (pointers.size === 1) {
        press = { at: [event.clientX, event.clientY], target: event.target, moved: false, view: { ...view } };
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        pinch = { apart: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, scale: scale(), at: toMap(...mid) };
        if (press) press.moved = true;
      }
    });

    frame.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size >= 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const rect = svg.getBoundingClientRect();
        const s = clampScale((pinch.scale * Math.hypot(a[0] - b[0], a[1] - b[1])) / pinch.apart);
        const [fw, fh] = frameSize();
        view = { w: fw / s, h: fh / s, x: 0, y: 0 };
        view.x = pinch.at[0] - (((a[0] + b[0]) / 2 - rect.left) / rect.width) * view.w;
        view.y = pinch.at[1] - (((a[1] + b[1]) / 2 - rect.top) / rect.height) * view.h;
        show();
      } else if (press) {
        const dx = event.clientX - press.at[0];
        const dy = event.clientY - press.at[1];
        if (!press.moved && Math.hypot(dx, dy) < DRAG) return;
        press.moved = true;
        const s = scale();
        view = { ...view, x: press.view.x - dx / s, y: press.view.y - dy / s };
        show();
      }
    });

    function lift(event) {
      if (!pointers.has(event.pointerId)) return;
      const clicked = event.type === "pointerup" && press && !press.moved && pointers.size === 1;
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 1) {
        // One finger left after a pinch pans on from where it is.
        const [rest] = [...pointers.values()];
        press = { at: rest, target: null, moved: true, view: { ...view } };
      } else if (pointers.size === 0) {
        if (clicked) tap(press.target, event.clientX, event.clientY);
        press = null;
      }
    }
    frame.addEventListener("pointerup", lift);
    frame.addEventListener("pointercancel", lift);
    frame.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        zoomAt(event.deltaY < 0 ? 1.2 : 1 / 1.2, event.clientX, event.clientY);
      },
      { passive: false },
    );
    section.querySelectorAll("[data-board-zoom]").forEach((button) =>
      button.addEventListener("click", () => {
        const how = button.dataset.boardZoom;
        if (how === "fit") fit();
        else zoomCentre(how === "in" ? 1.4 : 1 / 1.4);
      }),
    );
    svg.addEventListener("keydown", (event) => {
      const counter = event.target.closest && event.target.closest("g.counter");
      if (counter && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        choose(counter.dataset.ship);
      } else if (event.key === "Escape") {
        release();
      }
    });
    window.addEventListener("resize", () => centreOn(scale(), view.x + view.w / 2, view.y + view.h / 2));

    // --- a click or tap on the map ----------------------------------------------------------------------------

    function tap(target, clientX, clientY) {
      const counter = target && target.closest ? target.closest("g.counter") : null;
      const hex = hexAt(...toMap(clientX, clientY), size);
      if (pick && allowed(pick).some((spot) => same(spot, toOddQ(hex)))) return place(pick, hex);
      const move = moving ? moveOf(moving) : null;
      // Another ship's counter picks her first (her name, her arcs); a second click on her, picked, is a click
      // on her hex, so a move can still go into a hex a ship stands in.
      if (counter && counter.dataset.ship !== selected) return choose(counter.dataset.ship);
      if (move && onMap(hex)) return moveTo(move, hex);
      if (counter) return choose(counter.dataset.ship);
      if (pick) say(`Not one of the hexes offered for ${pick.dataset.ship || "this ship"}: pick a highlighted hex.`);
    }

    // --- the ship picked ----------------------------------------------------------------------------------------

    // Escape lets the picked ship go: no ship pressed, no arcs shown (a move being built stays as it is).
    function release() {
      selected = null;
      counters().forEach((c) => c.setAttribute("aria-pressed", "false"));
      svg.querySelectorAll("g.hexmap__arcs").forEach((g) => g.setAttribute("hidden", ""));
      say("");
      draw();
    }

    function choose(ship) {
      selected = ship;
      if (moveOf(ship)) moving = ship;
      counters().forEach((c) => c.setAttribute("aria-pressed", String(c.dataset.ship === ship)));
      // Gun arcs and range bands drawn for each ship (groups hexmap__arcs): only the picked ship's show.
      svg.querySelectorAll("g.hexmap__arcs").forEach((g) => g.toggleAttribute("hidden", g.dataset.forShip !== ship));
      const counter = counterOf(ship);
      const move = moveOf(ship);
      const name = counter ? counter.getAttribute("aria-label") || ship : ship;
      say(move ? `${name}. ${moveWords(move)}` : `${name}.`);
      draw();
    }

    // --- hex fields: a placement answered by a click on an allowed hex -------------------------------------------

    const allowed = (select) =>
      [...select.options].map((o) => json(o.value, null)).filter((v) => Array.isArray(v) && v.length === 2);

    function setPick(select) {
      pick = select;
      picks().forEach((s) => {
        const button = document.querySelector(`[data-board-pick="${s.id}"]`);
        if (button) button.setAttribute("aria-pressed", String(s === select));
      });
      draw();
    }

    function showPicked(select) {
      const out = select.closest(".field").querySelector(".board-pick__hex");
      const option = select.options[select.selectedIndex];
      if (out) out.textContent = option && option.value ? `Hex ${option.textContent.trim()}` : "No hex chosen yet";
    }

    function place(select, hex) {
      const spot = toOddQ(hex);
      const option = [...select.options].find((o) => same(json(o.value, []), spot));
      if (!option) return;
      select.value = option.value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      showPicked(select);
      const all = picks();
      const next = all[all.indexOf(select) + 1];
      say(`${select.dataset.ship || "The ship"} is to be set up in hex ${option.textContent.trim()}.`);
      if (next) setPick(next);
      else draw();
    }

    function wirePicks() {
      picks().forEach((select) => {
        const line = select.closest(".field").querySelector(".board-pick");
        if (line) line.hidden = false;
        showPicked(select);
        select.addEventListener("change", () => {
          showPicked(select);
          if (select === pick) draw();
        });
      });
      if (!pick || !document.body.contains(pick)) pick = picks()[0] || null;
      if (pick) setPick(pick);
    }

    function pickButton(button) {
      const select = document.getElementById(button.dataset.boardPick);
      if (select) setPick(select);
    }

    // --- moves: a path built by clicks on hexes ------------------------------------------------------------------

    function trace(move) {
      const counter = counterOf(move.dataset.ship);
      if (!counter) return null;
      const geometry = json(move.dataset.geometry, {});
      let hex = [Number(counter.dataset.q), Number(counter.dataset.r)];
      let facing = Number(counter.dataset.facing) || 0;
      const hexes = [hex];
      for (const token of json(move.dataset.plan, [])) {
        const [kind, n] = geometry[token] || ["", 0];
        if (kind === "turn") facing = (((facing + n) % 6) + 6) % 6;
        for (let i = 0; kind === "forward" && i < n; i += 1) hexes.push((hex = neighbour(hex, facing)));
        if (kind === "go") hexes.push((hex = neighbour(hex, n)));
      }
      return { hexes, hex, facing, geometry };
    }

    // The tokens that take the move's end to ``target``, where the way is plain: a compass step to it, or the
    // turns to face it (never about, which could go either way) and then ahead, or ahead in a straight line.
    function stepsTo(move, target) {
      const t = trace(move);
      if (!t) return null;
      const accepted = json(move.dataset.accepted, []);
      const tokens = Object.keys(t.geometry);
      const find = (kind, n) => {
        const fitting = tokens.filter((k) => t.geometry[k][0] === kind && t.geometry[k][1] === n);
        return fitting.find((k) => accepted.includes(k)) || fitting[0];
      };
      const d = directionTo(t.hex, target);
      if (d >= 0 && find("go", d)) return [find("go", d)];
      const ahead = find("forward", 1);
      if (!ahead) return null;
      if (d >= 0) {
        const turn = (((d - t.facing) % 6) + 6) % 6;
        if (turn === 3) return null;
        const way = turn <= 2 ? 1 : -1;
        const turning = find("turn", way);
        if (turn && !turning) return null;
        return [...Array(turn <= 2 ? turn : 6 - turn).fill(turning), ahead];
      }
      let hex = t.hex;
      for (let n = 1; n <= 12; n += 1) {
        hex = neighbour(hex, t.facing);
        if (same(hex, target)) return Array(n).fill(ahead);
      }
      return null;
    }

    // The same hex two hexsides round spelled as one turn step ("hard port"), where the path has such a step: the
    // server takes it if the rules refuse the two single turns (a ship that may turn only once a turn).
    function wholeTurnTo(move, target) {
      const t = trace(move);
      if (!t) return [];
      const tokens = Object.keys(t.geometry);
      const d = directionTo(t.hex, target);
      if (d < 0) return [];
      const turn = (((d - t.facing) % 6) + 6) % 6;
      if (turn !== 2 && turn !== 4) return [];
      const whole = tokens.find((k) => t.geometry[k][0] === "turn" && t.geometry[k][1] === (turn === 2 ? 2 : -2));
      const ahead = tokens.find((k) => t.geometry[k][0] === "forward" && t.geometry[k][1] === 1);
      return whole && ahead ? [whole, ahead] : [];
    }

    function moveWords(move) {
      const plan = move.querySelector(".plan");
      return plan ? plan.textContent.replace(/\s+/g, " ").trim() : "";
    }

    // The move's section built again by the server on its plan with ``params`` (step, undo, clear, or the steps
    // a clicked hex spells to try), swapped in place; ``wanted``: how long the plan would be if all were taken.
    function build(move, params, wanted) {
      rebuild(move, params, wanted).catch(() => say("The server did not answer: try again, or send the orders as they are."));
    }

    async function rebuild(move, params, wanted) {
      const query = new URLSearchParams({ plan: move.dataset.plan || "[]" });
      Object.entries(params).forEach(([name, values]) =>
        [].concat(values).forEach((value) => query.append(name, value)),
      );
      const old = move.closest("section.decision");
      old.setAttribute("aria-busy", "true");
      const response = await fetch(`${move.dataset.url}?${query}`, {
        headers: { "HX-Request": "true" },
        credentials: "same-origin",
      });
      if (response.headers.get("HX-Refresh") || !response.ok) {
        window.location.reload();
        return;
      }
      const holder = document.createElement("template");
      holder.innerHTML = (await response.text()).trim();
      const fresh = holder.content.querySelector("section.decision");
      if (!fresh) return window.location.reload();
      old.replaceWith(fresh);
      const now = fresh.querySelector("[data-board-move]");
      const notice = fresh.querySelector(".notice");
      const got = json(now.dataset.plan, []).length;
      say(
        wanted && got < wanted && notice
          ? `${notice.textContent.trim()} ${moveWords(now)}`
          : `${move.dataset.ship}: ${moveWords(now)}`,
      );
      draw();
    }

    function moveTo(move, hex) {
      const t = trace(move);
      if (t && same(t.hex, hex)) return say(`${move.dataset.ship}: ${moveWords(move)}`);
      const tokens = stepsTo(move, hex);
      if (!tokens) {
        say("No one plain way there from the end of the path: add the steps with the buttons beside the map.");
        return;
      }
      const instead = wholeTurnTo(move, hex);
      const params = instead.length ? { try: tokens, instead } : { try: tokens };
      build(move, params, json(move.dataset.plan, []).length + tokens.length);
    }

    // A step button of a move: the section built a step further in place, rather than the whole form posted.
    function stepButton(button, event) {
      const section = button.closest("section.decision");
      const move = section && section.querySelector("[data-board-move]");
      if (!move) return;
      event.preventDefault();
      if (move.dataset.ship) choose(move.dataset.ship);
      if (button.name === "step") build(move, { step: button.dataset.step });
      else build(move, { [button.name]: "1" });
    }

    // The orders swapped in anew (live updating): the hex fields wired again, the ship kept, the map redrawn.
    function refresh() {
      if (pick && !document.body.contains(pick)) pick = null;
      wirePicks();
      counters().forEach((c) => c.setAttribute("aria-pressed", String(c.dataset.ship === selected)));
      draw();
    }

    // --- what the map shows of the orders --------------------------------------------------------------------

    function shape(tag, attributes) {
      const element = document.createElementNS(SVGNS, tag);
      Object.entries(attributes).forEach(([name, value]) => element.setAttribute(name, value));
      overlay.appendChild(element);
      return element;
    }

    function draw() {
      overlay.replaceChildren();
      if (pick) {
        const chosen = json(pick.value, null);
        allowed(pick).forEach((spot) => {
          const here = chosen && same(spot, chosen);
          shape("path", { class: here ? "board__chosen" : "board__allowed", d: outline(fromOddQ(spot), size) });
        });
      }
      const move = moving ? moveOf(moving) : null;
      const t = move ? trace(move) : null;
      if (!t) return;
      const accepted = json(move.dataset.accepted, []);
      DIRECTIONS.forEach((_, d) => {
        const next = neighbour(t.hex, d);
        const tokens = onMap(next) ? stepsTo(move, next) : null;
        if (tokens && accepted.includes(tokens[0])) {
          const css = tokens.length === 1 ? "board__next board__next--ahead" : "board__next";
          shape("path", { class: css, d: outline(next, size) });
        }
      });
      shape("path", { class: "board__end", d: outline(t.hex, size) });
      if (t.hexes.length > 1) {
        const points = t.hexes.map((h) => pixel(h, size).map((v) => v.toFixed(1)).join(",")).join(" ");
        shape("polyline", { class: "board__path", points });
        t.hexes.slice(1).forEach((h) => {
          const [x, y] = pixel(h, size);
          shape("circle", { class: "board__step", cx: x.toFixed(1), cy: y.toFixed(1), r: "3.5" });
        });
      }
      const [x, y] = pixel(t.hex, size);
      const a = (Math.PI / 3) * t.facing;
      shape("line", {
        class: "board__facing",
        x1: x.toFixed(1),
        y1: y.toFixed(1),
        x2: (x + size * 0.8 * Math.sin(a)).toFixed(1),
        y2: (y - size * 0.8 * Math.cos(a)).toFixed(1),
      });
    }

    wirePicks();
    const first = moves()[0];
    const already = counters().find((c) => c.getAttribute("aria-pressed") === "true");
    if (already) choose(already.dataset.ship);
    else if (first && counterOf(first.dataset.ship)) choose(first.dataset.ship);
    // A map swapped in by live updating keeps the view the player had zoomed and panned to.
    if (keptView) {
      view = { ...keptView };
      show();
    } else start();
    draw();
    return { section, pickButton, stepButton, refresh };
  }

  // The page's board. The listeners below are the document's, once: the orders (#decisions) or the map
  // (#battle-map) may be swapped anew by live updating, and the board then wires them again or is set up anew.
  let board = null;
  const begin = () => {
    const section = document.querySelector("[data-board]:not(.board--live)");
    if (section) board = setUp(section) || board;
    else if (board) board.refresh();
  };
  document.addEventListener("click", (event) => {
    const target = event.target.closest ? event.target : null;
    if (!board || !target) return;
    const pick = target.closest("[data-board-pick]");
    if (pick) return board.pickButton(pick);
    const step = target.closest("#orders-form button[name=step], #orders-form button[name=undo], #orders-form button[name=clear]");
    if (step) board.stepButton(step, event);
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    const swapped = event.target;
    const ours = (element) => element && element.closest && element.closest("#decisions, #battle-map");
    if (ours(swapped) || (swapped.querySelector && swapped.querySelector("#decisions, #battle-map"))) begin();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
})();
