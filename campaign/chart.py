"""The leaderboard's wealth-over-time chart as a small inline SVG: one step line per captain (a fortune holds
until it next moves), days across, pounds up. Drawn on the server: no script, prints as it shows.

The legend is an HTML list under the drawing, not text inside it: a captain's name is up to 80 characters, and
text in an SVG is neither wrapped nor measured on the server, so at the edge of the drawing it was cut off. The
list wraps at any width (a 390 px phone too). The pounds up the side are written short (£1.2M, £500k) and the
left margin is sized from the longest, so that no label runs off the drawing's left edge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

# Okabe-Ito: told apart by the colour-blind.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
WIDTH, HEIGHT = 480, 240
RIGHT, TOP, BOTTOM = 24, 12, 30
FONT = 12  # the labels' size in the drawing's units; a phone's stylesheet makes it LARGEST_FONT (standings.css)
LARGEST_FONT = 18
CHAR_WIDTH = 0.6 * LARGEST_FONT  # a generous width of a digit or £, to size the left margin from the longest label


def _nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` steps over ``span``."""
    raw = max(int(span / ticks), 1)
    magnitude: int = 10 ** (len(str(raw)) - 1)
    return next(magnitude * factor for factor in (1, 2, 5, 10) if magnitude * factor >= raw)


def pounds_short(money: int) -> str:
    """£0, £750, £500k, £1.2M: the axis's labels (the exact sums are on the leaderboard and the lines' titles)."""
    if money >= 1_000_000:
        return f"£{money / 1_000_000:g}M"
    if money >= 1_000:
        return f"£{money / 1_000:g}k"
    return f"£{money}"


def wealth_chart_svg(series: Mapping[str, Sequence[tuple[int, int]]], *, today: int) -> SafeString:
    """``series``: {captain: [(day, fortune)]} in day order (campaign.standings.wealth_over_time): the drawing and
    its legend."""
    if not series:
        return mark_safe('<p class="muted">No money has moved yet.</p>')
    last_day = max([today, *(day for points in series.values() for day, _ in points)], default=0)
    top = max((money for points in series.values() for _, money in points), default=0)
    step = _nice_step(top)
    ceiling = max(step * ((top + step - 1) // step), step)
    levels = range(0, ceiling + 1, step)
    left = round(10 + CHAR_WIDTH * max(len(pounds_short(money)) for money in levels))
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day: int) -> float:
        return left + plot_w * (day / last_day if last_day else 0)

    def y(money: int) -> float:
        return TOP + plot_h * (1 - money / ceiling)

    parts = [
        f'<figure class="wealth"><svg class="wealth-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="wealth-title" font-size="{FONT}">',
        '<title id="wealth-title">Each captain\'s money by campaign day</title>',
    ]
    for money in levels:
        parts.append(
            f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{y(money):.1f}" y2="{y(money):.1f}" '
            'stroke="#d9c9a3" stroke-width="1"/>'
        )
        parts.append(
            f'<text class="tick" x="{left - 6}" y="{y(money) + 4:.1f}" text-anchor="end" fill="currentColor">'
            f"{pounds_short(money)}</text>"
        )
    day_step = _nice_step(last_day, 5) if last_day else 1
    for day in range(0, last_day + 1, day_step):
        # The last label is drawn leftwards of its day: centred, it would run off the drawing's right edge.
        anchor = "end" if x(day) > WIDTH - RIGHT - 24 else "middle"
        parts.append(
            f'<text class="tick" x="{x(day):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" fill="currentColor">'
            f"day {day}</text>"
        )
    legend = []
    for index, (name, points) in enumerate(sorted(series.items())):
        colour = PALETTE[index % len(PALETTE)]
        path: list[str] = []
        for n, (day, money) in enumerate(points):
            if n:
                path.append(f"{x(day):.1f},{y(points[n - 1][1]):.1f}")  # the fortune held until this day
            path.append(f"{x(day):.1f},{y(money):.1f}")
        path.append(f"{x(last_day):.1f},{y(points[-1][1]):.1f}")
        label = escape(name)
        # Lines past the palette's eight are dashed, so that no two captains' lines look the same.
        dash = ' stroke-dasharray="6 3"' if index >= len(PALETTE) else ""
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{" ".join(path)}">'
            f"<title>{label}: £{points[-1][1]:,}</title></polyline>"
        )
        legend.append(
            f'<li><span class="wealth-legend__swatch{" wealth-legend__swatch--dashed" if dash else ""}" '
            f'style="--colour: {colour}" aria-hidden="true"></span>{label} '
            f'<span class="muted">£{points[-1][1]:,}</span></li>'
        )
    parts.append("</svg>")
    parts.append(f'<figcaption><ul class="wealth-legend">{"".join(legend)}</ul></figcaption></figure>')
    return mark_safe("".join(parts))  # every name is escaped above
