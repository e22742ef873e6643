"""What a person sees: the board drawn as SVG, charts, the clickable board widgets, and the lessons' helpers."""
