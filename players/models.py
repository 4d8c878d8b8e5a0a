# Models arrive with their features; kept so Django treats this as a full app from the start.
