"""Command-line front ends of the referee app: ``check_hand`` referees hand reports."""
