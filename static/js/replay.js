// The replay's previous and next buttons move the turn slider, whose own HTMX request (hx-get on input) fetches
// that turn's frame; the buttons' links and state follow the slider. Without script they are plain links.
// Listeners sit on the document, so a page HTMX restores from its history keeps working.
(function () {
  "use strict";
  if (window.redCaptainReplay) return;
  window.redCaptainReplay = true;

  function parts() {
    return {
      slider: document.getElementById("replay-turn"),
      output: document.getElementById("replay-turn-output"),
      steps: document.querySelectorAll(".replay__step[data-step]"),
    };
  }

  function refresh() {
    var p = parts();
    if (!p.slider) return;
    var turn = Number(p.slider.value), first = Number(p.slider.min), last = Number(p.slider.max);
    if (p.output) p.output.textContent = turn + " of " + last;
    p.steps.forEach(function (link) {
      var to = turn + Number(link.getAttribute("data-step"));
      link.setAttribute("aria-disabled", to < first || to > last ? "true" : "false");
      link.setAttribute("href", p.slider.getAttribute("hx-get") + "?turn=" + Math.min(Math.max(to, first), last));
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target instanceof Element && event.target.id === "replay-turn") refresh();
  });
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest(".replay__step[data-step]") : null;
    var slider = parts().slider;
    if (!link || !slider) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    slider.value = String(Number(slider.value) + Number(link.getAttribute("data-step")));
    slider.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // Back and forward through the pushed turns: the slider follows the frame HTMX restores.
  document.addEventListener("htmx:historyRestore", function () {
    var frame = document.querySelector("#replay [data-turn]");
    var slider = parts().slider;
    if (frame && slider) slider.value = frame.getAttribute("data-turn");
    refresh();
  });
  refresh();
})();
