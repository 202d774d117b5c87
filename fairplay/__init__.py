"""Fair-play flags for an event's referees and organizers (docs/fair-play.md)."""
