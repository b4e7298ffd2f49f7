"""The strategic map of Mars: hexes, territories, cities and canals (and, as it grows, voyages and treks)."""
