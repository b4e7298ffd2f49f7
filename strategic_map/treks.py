"""Epic treks (SGC-TREK-01..28): the services. A captain who survived the loss of his ship walks home, one roll of
the trek table a week (the rules count the rolls as the weeks the journey took): one roll every
``Campaign.trek_days_per_roll`` campaign days, 7 as written, fewer a house rule. The rules themselves are
strategic_map.trek_rules (pure), the dice campaign.dice (logged, with the captain and the hex in their purpose).

Each trek advances in its own transaction under a lock on the campaign row and then the trek's row (the order the
dice take too), and its roll for a day is unique (TrekRoll: trek, day): a day run twice, or a worker killed halfway,
rolls each trek once. A handful of queries per trek, whatever the party or the map.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max

from accounts.models import User
from battles.engine.hexgrid import Hex
from campaign import auctions, dice, locks
from campaign.models import Campaign, Captain, CaptainStatus, ChronicleEntry, ChronicleKind
from strategic_map import map_rules, mapdata, news, trek_rules
from strategic_map.models import EpicTrek, TrekRoll, TrekStatus

CAUSES = {
    "crash_landing": "crash-landed",
    "over_the_side": "was put over the side",
}

ENDED_CAPTAIN_STATUS = {
    trek_rules.Ending.SAFE: CaptainStatus.ASHORE,
    trek_rules.Ending.CAPTURED: CaptainStatus.CAPTURED,
    trek_rules.Ending.PERISHED: CaptainStatus.LOST,
}

# The end of a trek, in the title of the player's news of that week.
ENDING_NEWS: dict[trek_rules.Ending | None, str] = {
    trek_rules.Ending.SAFE: "safe home",
    trek_rules.Ending.CAPTURED: "taken captive",
    trek_rules.Ending.PERISHED: "the party is lost",
}


def city_key(name: str) -> str:
    """A city as captains' and ships' ``city`` fields store it (campaign.auctions): its name in lower case."""
    return name.casefold()


def route_from_json(route: object) -> list[Hex]:
    """A route as the API and the trek row hold it, [[q, r], ...]; ValidationError for anything else."""
    if not isinstance(route, list):
        raise ValidationError({"route": "A route is a list of hexes, each [q, r]."})
    try:
        return [Hex.from_json(step) for step in route]
    except ValueError as error:
        raise ValidationError({"route": f"A route is a list of hexes, each [q, r]: {error}."}) from None


def route_to_json(route: tuple[Hex, ...] | list[Hex]) -> list[list[int]]:
    return [step.to_json() for step in route]


def trek_start(
    *, captain_id: int, cause: str, q: int, r: int, party: int, day: int, encounter_id: int | None = None
) -> EpicTrek:
    """The captain survived the loss of his ship: he and ``party`` men (himself included) set out from (q, r).

    SGC-TREK-01. The captain is on a trek from now (TREKKING), his bids at auction released; the first roll is
    for the landing hex, on the next campaign day (SGC-TREK-03). Idempotent: the same encounter's trek for the
    same captain is found, not made again, and a captain already walking keeps the trek he is on."""
    if cause not in CAUSES:
        raise ValidationError({"cause": f"A trek starts with a crash landing or over the side, not {cause!r}."})
    if party < 1:
        raise ValidationError({"party": "The party is at least the captain himself."})
    mars = mapdata.mars_map()
    if not trek_rules.on_map(mars, Hex(q, r)):
        raise ValidationError({"q": f"({q}, {r}) is not a hex of the map."})
    with transaction.atomic():
        campaign = locks.campaign_of(Captain, captain_id)
        if campaign is None:
            raise ValidationError({"captain": "There is no such captain."})
        auctions.auctions_lock_for_captains(campaign, [captain_id])  # after the campaign, before the captain
        captain = locks.captain(campaign, captain_id)
        assert captain is not None
        if encounter_id is not None:
            found = EpicTrek.objects.filter(captain=captain, encounter_id=encounter_id).first()
            if found is not None:
                return found
        walking = EpicTrek.objects.filter(captain=captain, status=TrekStatus.UNDER_WAY).first()
        if walking is not None:
            return walking
        trek = EpicTrek.objects.create(
            campaign=captain.campaign,
            captain=captain,
            cause=cause,
            started_day=day,
            q=q,
            r=r,
            party_start=party,
            party=party,
            encounter_id=encounter_id,
        )
        captain.status = CaptainStatus.TREKKING
        captain.city = ""
        captain.save(update_fields=["status", "city"])
        # On foot across Mars he has no word with the prize court: his bids in escrow come home to his bank.
        auctions.captain_bids_release(captain=captain)
        # The standings tell every member he is on a trek: the chronicle tells it first, in the same transaction,
        # and never where (the party's hex is his own).
        men = party - 1
        with_men = f" with {men} of his men" if men else " alone"
        ChronicleEntry.objects.create(
            campaign=captain.campaign,
            day=day,
            kind=ChronicleKind.TREK_STARTED,
            text=f"Captain {captain.name} {CAUSES[cause]} and sets out on an epic trek home{with_men}.",
            captain=captain,
        )
    return trek


def _trek_for_player(*, trek_id: int, user: User) -> EpicTrek:
    """The trek, locked, if it is this player's captain's and still under way."""
    campaign = locks.campaign_of(EpicTrek, trek_id)  # campaign first (campaign.locks), then the trek
    trek = (
        None
        if campaign is None
        else EpicTrek.objects.select_for_update(no_key=True, of=("self",))
        .select_related("captain")
        .filter(pk=trek_id)
        .first()
    )
    if trek is None:
        raise ValidationError("No such trek.")
    if trek.captain.player_id != user.pk:
        raise PermissionDenied("Only the captain's player chooses the way his party walks.")
    if trek.status != TrekStatus.UNDER_WAY:
        raise ValidationError(f"The trek is over: {trek.get_status_display().lower()}.")
    return trek


def trek_route_set(*, trek_id: int, user: User, route: object) -> EpicTrek:
    """SGC-TREK-28: the hexes the party walks next, one or a whole route, each next to the one before and the first
    next to the party's hex. Replaces the route chosen before; an empty route leaves it to the shortest way home."""
    steps = route_from_json(route)
    with transaction.atomic():
        trek = _trek_for_player(trek_id=trek_id, user=user)
        try:
            checked = trek_rules.route_check(mapdata.mars_map(), Hex(trek.q, trek.r), steps)
        except trek_rules.RouteRefused as refusal:
            raise ValidationError({"route": f"The party cannot walk that way: {refusal}."}) from None
        trek.route = route_to_json(checked)
        trek.save(update_fields=["route"])
    return trek


def trek_route_home(*, trek_id: int, user: User) -> EpicTrek:
    """The shortest way home from where the party is (trek_rules.way_home) becomes its route."""
    with transaction.atomic():
        trek = _trek_for_player(trek_id=trek_id, user=user)
        home = trek_rules.way_home(mapdata.mars_map(), Hex(trek.q, trek.r))
        trek.route = route_to_json(home.path)
        trek.save(update_fields=["route"])
    return trek


def treks_advance(*, campaign_id: int, day: int) -> int:
    """Roll every trek under way in the campaign whose next roll falls on campaign day ``day`` (or before it: a
    day missed is made up once, not one roll per missed day); the number advanced.

    Idempotent per (trek, day): a trek that has its roll for the day is left alone."""
    days_per_roll = Campaign.objects.filter(pk=campaign_id).values_list("trek_days_per_roll", flat=True).get()
    under_way = (
        EpicTrek.objects.filter(campaign_id=campaign_id, status=TrekStatus.UNDER_WAY, started_day__lt=day)
        .annotate(last_roll_day=Max("trek_rolls__day"))
        .order_by("pk")
        .values_list("pk", "started_day", "last_roll_day")
    )
    waiting = [
        trek_id
        for trek_id, started_day, last_roll_day in under_way
        if trek_rules.next_roll_day(started_day=started_day, last_roll_day=last_roll_day, days_per_roll=days_per_roll)
        <= day
    ]
    return sum(1 for trek_id in waiting if _trek_roll(campaign_id=campaign_id, trek_id=trek_id, day=day))


def _trek_roll(*, campaign_id: int, trek_id: int, day: int) -> bool:
    """One roll of one trek for one day (SGC-TREK-03, -12..28); False if it was made already or the trek is over."""
    mars = mapdata.mars_map()
    with transaction.atomic():
        # Campaign first, then the trek and its captain, whom the trek's end changes (campaign.locks' order; the
        # dice are numbered under the campaign's row).
        campaign = locks.campaign(campaign_id)
        trek = (
            EpicTrek.objects.select_for_update(no_key=True, of=("self", "captain"))
            .select_related("captain")
            .get(pk=trek_id, campaign=campaign)
        )
        if trek.status != TrekStatus.UNDER_WAY:
            return False
        captain = trek.captain
        last = TrekRoll.objects.filter(trek=trek).order_by("-seq").only("result", "day").first()
        due = trek_rules.next_roll_day(
            started_day=trek.started_day,
            last_roll_day=None if last is None else last.day,
            days_per_roll=campaign.trek_days_per_roll,
        )
        if due > day:  # rolled already this week (a re-run of the day, or a second worker)
            return False
        here = Hex(trek.q, trek.r)
        if last is None:
            note = "The landing hex"
        elif trek_rules.parse_code(last.result).outcome is trek_rules.Outcome.LOST:
            note = "Lost: the same hex again"
        else:
            # SGC-TREK-28: after a Passage or a survived attack the party enters the next hex.
            step = trek_rules.next_hex(mars, here, route_from_json(trek.route))
            here = step.hex
            trek.route = route_to_json(step.route)
            label = mars.hex_at(here.q, here.r).label
            note = f"No route chosen: the shortest way home, into {label}" if step.by_way_home else f"Into {label}"
        hex_ = mars.hex_at(here.q, here.r)
        table = map_rules.trek_table(campaign)
        reading = trek_rules.LossReading(campaign.trek_losses)
        week = trek.rolls + 1
        purpose = f"Epic trek of Captain {captain.name}, week {week}: trek table in {trek_rules.hex_words(hex_)}"
        (table_die,) = dice.roll_many(campaign, [(purpose, 6, captain)], day=day)
        code = trek_rules.table_code(table, hex_, table_die.result)
        count = trek_rules.loss_dice_count(trek.party, code.loss)
        loss_dice = dice.roll_many(
            campaign,
            [
                (
                    f"Epic trek of Captain {captain.name}, week {week}: {code} in {hex_.label}, "
                    f"man {trek.party - count + n} of {trek.party} lost on {code.loss} or less",
                    6,
                    captain,
                )
                for n in range(1, count + 1)
            ],
            day=day,
        )
        result = trek_rules.roll_result(
            mars=mars,
            hex_=hex_,
            code=code,
            party=trek.party,
            loss_dice=[d.result for d in loss_dice],
            reading=reading,
        )
        words = trek_rules.roll_words(hex_=hex_, die=table_die.result, result=result, note=note)
        TrekRoll.objects.create(
            trek=trek,
            seq=week,
            day=day,
            q=here.q,
            r=here.r,
            row=hex_.trek_row,
            allegiance=hex_.allegiance,
            roll=table_die,
            result=str(code),
            losses=result.losses,
            party_after=result.party_after,
            note=words,
        )
        trek.q, trek.r = here.q, here.r
        trek.party = result.party_after
        trek.rolls = week
        if result.ending is not None:
            _trek_end(trek=trek, captain=captain, result=result, day=day)
        trek.save()
        news.tell_trek_week(
            campaign,
            captain,
            trek_id=trek.pk,
            week=week,
            day=day,
            words=words,
            ended=ENDING_NEWS.get(result.ending, ""),
        )
    return True


def _trek_end(*, trek: EpicTrek, captain: Captain, result: trek_rules.RollResult, day: int) -> None:
    """SGC-TREK-10, -20, -21, -26: the trek ends; the captain is home (his weeks are fame), captive or dead."""
    assert result.ending is not None
    mars = mapdata.mars_map()
    trek.status = result.ending.value
    trek.ended_day = day
    weeks = trek.rolls
    men = trek.party - 1
    with_men = f" with {men} of his men" if men else " alone"
    if result.ending is trek_rules.Ending.SAFE:
        city = mars.city(result.end_city)
        home = trek_rules.city_hex(mars, city)
        trek.q, trek.r, trek.end_city, trek.route = home.q, home.r, city.name, []
        captain.city = city_key(city.name)
        captain.fame_weeks += weeks
        kind = ChronicleKind.TREK_SURVIVED
        text = f"Captain {captain.name} comes safe to {city.name}{with_men} after an epic trek of {weeks} weeks."
    elif result.ending is trek_rules.Ending.CAPTURED:
        captain.city = ""
        kind = ChronicleKind.CAPTAIN_LOST
        text = f"Captain {captain.name} is taken captive after {weeks} weeks of an epic trek."
    else:
        captain.city = ""
        kind = ChronicleKind.CAPTAIN_LOST
        text = f"Captain {captain.name} and the last of his party perish after {weeks} weeks of an epic trek."
    captain.status = ENDED_CAPTAIN_STATUS[result.ending]
    captain.save(update_fields=["status", "city", "fame_weeks"])
    ChronicleEntry.objects.create(campaign_id=trek.campaign_id, day=day, kind=kind, text=text[:300], captain=captain)
