"""Friends, presence and challenges: the social layer over games and notifications."""
