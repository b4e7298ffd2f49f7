// Shows a ship's gun arcs, range rings and targets (the map's hidden g.hexmap__arcs[data-for-ship]) when her
// counter is clicked, or chosen with Enter or Space; Escape hides them. One job only, so that the board script
// (board.js) can fold it in: it shows the selected ship's group the same way, and showing is idempotent.
(function () {
  "use strict";

  function groups(map) {
    return map.querySelectorAll("g.hexmap__arcs[data-for-ship]");
  }

  function show(map, ship) {
    groups(map).forEach(function (group) {
      group.toggleAttribute("hidden", group.getAttribute("data-for-ship") !== ship);
    });
  }

  function counterOf(event) {
    var target = event.target instanceof Element ? event.target : null;
    var counter = target ? target.closest("svg.hexmap .counter[data-ship]") : null;
    return counter ? { counter: counter, map: counter.closest("svg.hexmap") } : null;
  }

  document.addEventListener("click", function (event) {
    var found = counterOf(event);
    if (found) show(found.map, found.counter.getAttribute("data-ship"));
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      document.querySelectorAll("svg.hexmap").forEach(function (map) { show(map, null); });
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    var found = counterOf(event);
    if (!found) return;
    event.preventDefault();
    show(found.map, found.counter.getAttribute("data-ship"));
  });
})();
