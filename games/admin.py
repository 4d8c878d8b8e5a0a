# Admin (moderation) screens are registered here as the models arrive.
