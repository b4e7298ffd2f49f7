"""The Data Card and Appendix A's working as plain text, for ``manage.py rate_ironclad``: the card as the text prints
it (her stats' boxes plain, the boxes beyond them between ~~ as the text strikes them, stats lost in brackets), then
the working line by line, then the fleet report. Pure."""

from __future__ import annotations

from battles.rules.ironclads.appendix_a import Rating
from battles.rules.ironclads.cards import ARCS, TRACKS, TURRETS, DataCard, Track
from battles.rules.ironclads.fleet import Entry
from battles.rules.ironclads.record_sheet import ARC_WORDS, LABELS


def track_line(track: Track) -> str:
    numbers = [f"{n + 1:02d}" for n in range(track.boxes)]
    hers = " ".join(numbers[: track.left])
    lost = " ".join(numbers[track.left : track.stats])
    struck = " ".join(numbers[track.stats :])
    parts = [p for p in (hers, f"({lost})" if lost else "", f"~~{struck}~~" if struck else "") if p]
    return f"{LABELS[track.name]}: {' '.join(parts)}"


def card_lines(data_card: DataCard) -> list[str]:
    lines = [f"Name: {data_card.name}"]
    heading = ", ".join(p for p in (data_card.nation, data_card.years) if p)
    if heading:
        lines.append(heading)
    lines += [f"Sister Ships: {', '.join(data_card.sisters) or 'none'}", "Guns:"]
    for name in TRACKS:
        line = track_line(data_card.track(name))
        if name in TURRETS:
            bears = data_card.bears(name)
            line += " - " + "/".join(ARC_WORDS[a].upper() if a in bears else ARC_WORDS[a] for a in ARCS)
        lines.append(line)
    lines += [f"Type: {data_card.kind}", "Current Speed:", "Hits:", "Notes:"]
    return lines


def rating_text(rating: Rating, *, sources: str = "") -> str:
    lines = [*card_lines(rating.card), "", "Working (Appendix A):", *(f"  {line}" for line in rating.lines())]
    if sources:
        lines += ["", sources]
    return "\n".join(lines)


def fleet_report(entries: tuple[Entry, ...]) -> str:
    """One line a ship: each track's stats in card order, her type, her battles."""
    short = ["Fwd", "Port", "Stbd", "Rear", "FT", "CT", "RT", "Arm", "Prop", "Hull"]
    width = max(len(e.name) for e in entries)
    lines = [f"{'Ship':{width}}  " + " ".join(f"{s:>4}" for s in short) + "  Type          Battles"]
    for entry in entries:
        card = entry.rating().card
        figures = " ".join(f"{card.track(t).stats:>4}" for t in TRACKS)
        lines.append(f"{entry.name:{width}}  {figures}  {card.kind:13} {', '.join(entry.battles)}")
    lines.append(f"{len(entries)} ships; every entry rated (IC-CARD-02..29).")
    return "\n".join(lines)
