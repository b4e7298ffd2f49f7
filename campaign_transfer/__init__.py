"""A whole campaign as one versioned JSON document and back (``export_campaign`` / ``import_campaign``).

It sits above both apps whose rows it carries: the campaign's (campaign) and the campaign on the map
(strategic_map), so that the campaign app never reaches up into the strategic map (an import contract in
pyproject.toml keeps it so). Nothing imports this package but its commands and tests.
"""
