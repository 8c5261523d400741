"""Seeding, chunking, parallel execution and exact aggregation, shared by every game."""
