"""Reads: the repairs a ship must have before she sails (SGC-MONEY-03, SGC-MONEY-07, SGC-REPAIR-01, SGC-AUCT-05).

Out of his money a captain must first repair all the damage to his ship (SGC-MONEY-03); a bought prize's damage
too (SGC-AUCT-05). The rules are silent when the repairs cost more than he has (SGC-MONEY-07). Designed: a
ship leaving Parhoon is repaired as far as her captain's money goes, in this order,

    1. hull hits, box by box (the bill's first line);
    2. destroyed guns, in her record's order, each whole or not at all;
    3. the rest of the bill in its order: screw/mast hits and coal bunker boxes one by one, a blown boiler and
       each store whole;
    4. the men lost, made up last and all together (SGC-EXP-14);

a line the money left cannot pay is passed over and the money goes on down the list; what Parhoon cannot do (a
British gun, SGC-START-06) is left. She sails damaged for the rest, never in debt. Parhoon alone repairs
(SGC-REPAIR-01): from any other friendly city she sails as she is, home to be mended.

``sailing_repairs`` plans; ``campaign.yard.sailing_repairs_pay`` pays (a ledger entry for each repair, REPAIR
or RECRUITS) and writes; ``sailing_repairs_paid`` reads back what a voyage's departure paid. docs/campaign.md
keeps the decision.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from campaign import yard_selectors as sel
from campaign.models import Campaign, CampaignShip, EntryKind, LedgerEntry
from galleons.record import ShipRecord


@dataclass(frozen=True)
class SailingRepairs:
    """What the yard does before she sails (``chosen``: line key and how many, ``done`` the same in words,
    ``prices`` what each costs, all in the order above), its price, and what stays damaged."""

    ship_name: str
    at_parhoon: bool
    chosen: tuple[tuple[str, int], ...]
    done: tuple[str, ...]
    left: tuple[sel.RepairLine, ...]
    repairs: int
    recruits: int
    cleared: tuple[str, ...] = ()
    prices: tuple[int, ...] = ()

    @property
    def cost(self) -> int:
        return self.repairs + self.recruits

    @property
    def needed(self) -> bool:
        """Whether the yard touches her at all (a repair bought, or a battle's mess cleared free)."""
        return bool(self.chosen or self.cleared)

    def words(self) -> str:
        """What a player is told, before and after he sails."""
        name = f"the {self.ship_name}"
        if not self.at_parhoon:
            if not self.left:
                return ""
            return (
                f"No yard here: only Parhoon repairs (SGC-REPAIR-01), so {name} sails damaged "
                f"({_listed(self.left)}); sail her home to Parhoon to be mended."
            )
        said = []
        if self.done:
            said.append(
                f"Before {name} leaves Parhoon the yard repairs {', '.join(self.done)} "
                f"{f'for £{self.cost:,}' if self.cost else 'at no cost'} (SGC-MONEY-03)."
            )
        if self.left:
            said.append(
                f"She sails damaged for what her captain cannot pay or Parhoon cannot do: {_listed(self.left)} "
                "(SGC-MONEY-07)."
            )
        return " ".join(said)

    def to_json(self) -> dict[str, Any]:
        return {
            "paid": self.cost,
            "repaired": list(self.done),
            "left": [line.to_json() for line in self.left],
            "words": self.words(),
        }


def _listed(lines: tuple[sel.RepairLine, ...]) -> str:
    return "; ".join(_item(line, line.quantity) + (f": {line.why_not}" if line.why_not else "") for line in lines)


def _item(line: sel.RepairLine, quantity: int) -> str:
    if line.key == sel.RECRUITS:
        return f"{quantity} men recruited to replace those lost"
    return line.what + (f" x{quantity}" if quantity > 1 else "")


def _left(line: sel.RepairLine, taken: int) -> sel.RepairLine | None:
    rest = line.quantity - taken
    return (
        None
        if rest <= 0
        else sel.RepairLine(line.key, line.what, line.clause, rest, line.unit_price, line.available, line.why_not)
    )


def plan_for(bill: sel.RepairBill, *, balance: int, ship_name: str, at_parhoon: bool) -> SailingRepairs:
    """The repairs in the module's order as far as ``balance`` goes (everything left when not at Parhoon)."""
    if not at_parhoon:
        return SailingRepairs(ship_name, False, (), (), bill.lines, 0, 0)
    money = max(balance, 0)
    chosen: list[tuple[str, int]] = []
    done: list[str] = []
    prices: list[int] = []
    left: list[sel.RepairLine] = []
    repairs = recruits = 0
    # The bill lists the hull, then the guns in record order, then the rest, new men last: the order above.
    for line in bill.lines:
        taken = 0
        if line.available and line.unit_price <= 0:
            taken = line.quantity
        elif line.available:
            can = money // line.unit_price
            taken = min(can, line.quantity) if line.partial else (line.quantity if can >= line.quantity else 0)
        if taken:
            price = taken * line.unit_price
            money -= price
            if line.key == sel.RECRUITS:
                recruits += price
            else:
                repairs += price
            chosen.append((line.key, taken))
            done.append(_item(line, taken))
            prices.append(price)
        rest = _left(line, taken)
        if rest is not None:
            left.append(rest)
    return SailingRepairs(
        ship_name, True, tuple(chosen), tuple(done), tuple(left), repairs, recruits, bill.cleared, tuple(prices)
    )


def sailing_repairs(ship: CampaignShip, *, balance: int) -> SailingRepairs:
    """What the yard must do to the ship, in port, before she sails with ``balance`` in her captain's bank."""
    at_parhoon = ship.city.casefold() == sel.PARHOON
    return plan_for(sel.repair_bill(ship), balance=balance, ship_name=ship.name, at_parhoon=at_parhoon)


def record_after(ship: CampaignShip, plan: SailingRepairs) -> ShipRecord:
    """Her record once the planned repairs (and the free clearing that comes with any) are done."""
    return sel.repaired(sel.ship_record(ship), sel.whole_record(ship), dict(plan.chosen))


# Each repair bought before sailing is its own ledger entry, keyed by the voyage and the bill's line (a retried
# departure pays once), its memo naming what was done after this mark.
_MARK = "(SGC-MONEY-03): "


def departure_key(voyage_id: int, line_key: str) -> str:
    return f"sailing:{voyage_id}:{line_key}"


def departure_memo(ship_name: str, item: str) -> str:
    return f"Before the {ship_name} leaves Parhoon {_MARK}{item}"


def sailing_repairs_paid(*, ship: CampaignShip, voyage_id: int, start_city: str) -> SailingRepairs:
    """What a voyage's departure paid (its ledger entries) and what stays damaged (her bill now): the voyage's
    answer, the same however often the same orders are sent."""
    entries = list(
        LedgerEntry.objects.filter(ship=ship, idempotency_key__startswith=departure_key(voyage_id, "")).order_by("pk")
    )
    repairs = -sum(e.amount for e in entries if e.kind == EntryKind.REPAIR)
    recruits = -sum(e.amount for e in entries if e.kind == EntryKind.RECRUITS)
    done = tuple(e.memo.partition(_MARK)[2] or e.memo for e in entries)
    at_parhoon = start_city.casefold() == sel.PARHOON
    return SailingRepairs(ship.name, at_parhoon, (), done, sel.repair_bill(ship).lines, repairs, recruits)


def before_sailing(ships: Iterable[CampaignShip], *, campaign: Campaign) -> list[SailingRepairs]:
    """For each of the campaign's ships in port (her captain loaded) that is not whole: what the yard will do
    before she sails from Parhoon, or that she sails damaged from elsewhere; the map's planner shows it before
    the player confirms. No query a ship: the bill reads her campaign's recruit price from ``campaign``."""
    found = []
    for ship in ships:
        if ship.captain is None:
            continue
        ship.campaign = campaign
        plan = sailing_repairs(ship, balance=ship.captain.balance)
        if plan.words():
            found.append(plan)
    return found
