"""The leaderboard's wealth-over-time chart as a small inline SVG: one step line per captain (a balance holds
until money next moves), days across, pounds up. Drawn on the server: no script, prints as it shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

# Okabe-Ito: told apart by the colour-blind.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 12, 28


def _nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` steps over ``span``."""
    raw = max(int(span / ticks), 1)
    magnitude: int = 10 ** (len(str(raw)) - 1)
    return next(magnitude * factor for factor in (1, 2, 5, 10) if magnitude * factor >= raw)


def wealth_chart_svg(series: Mapping[str, Sequence[tuple[int, int]]], *, today: int) -> SafeString:
    """``series``: {captain: [(day, balance)]} in day order (campaign.standings.wealth_over_time)."""
    if not series:
        return mark_safe('<p class="muted">No money has moved yet.</p>')
    last_day = max([today, *(day for points in series.values() for day, _ in points)], default=0)
    top = max((balance for points in series.values() for _, balance in points), default=0)
    step = _nice_step(top)
    ceiling = max(step * ((top + step - 1) // step), step)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day: int) -> float:
        return LEFT + plot_w * (day / last_day if last_day else 0)

    def y(money: int) -> float:
        return TOP + plot_h * (1 - money / ceiling)

    parts = [
        f'<svg class="wealth-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="wealth-title">',
        '<title id="wealth-title">Each captain\'s money by campaign day</title>',
    ]
    for money in range(0, ceiling + 1, step):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(money):.1f}" y2="{y(money):.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y(money) + 4:.1f}" text-anchor="end">£{money:,}</text>')
    day_step = _nice_step(last_day, 6) if last_day else 1
    for day in range(0, last_day + 1, day_step):
        parts.append(f'<text class="tick" x="{x(day):.1f}" y="{HEIGHT - 8}" text-anchor="middle">day {day}</text>')
    for index, (name, points) in enumerate(sorted(series.items())):
        colour = PALETTE[index % len(PALETTE)]
        path: list[str] = []
        for n, (day, balance) in enumerate(points):
            if n:
                path.append(f"{x(day):.1f},{y(points[n - 1][1]):.1f}")  # the balance held until this day
            path.append(f"{x(day):.1f},{y(balance):.1f}")
        path.append(f"{x(last_day):.1f},{y(points[-1][1]):.1f}")
        label = escape(name)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(path)}">'
            f"<title>{label}: £{points[-1][1]:,}</title></polyline>"
        )
        legend_y = TOP + 14 + 18 * index
        parts.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{legend_y - 9}" width="12" height="4" fill="{colour}"/>')
        parts.append(f'<text class="legend" x="{WIDTH - RIGHT + 30}" y="{legend_y}">{label}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every name is escaped above
