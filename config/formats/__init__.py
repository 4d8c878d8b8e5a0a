"""Date formats of the service's languages where Django's own are not ours (FORMAT_MODULE_PATH):
Danish keeps Django's; English says dates the ISO way the moderators' panel always has, not the
US month-first way."""
