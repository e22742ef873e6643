"""The lab's tables as a class reads them: a value and its interval share a column, the frame keeps all three."""

import math

import pandas as pd

from amoeboid_edu.lab.stats import html_table, with_intervals


def leaderboard() -> pd.DataFrame:
    return pd.DataFrame({"rank": ["1", "2-3"], "player": ["nina", "omar"], "games": [40, 40], "win_rate": [0.55, 0.4],
                         "ci_low": [0.48, 0.3], "ci_high": [0.61, 0.5], "rating": [1520.2, 1480.0],
                         "rating_low": [1490.0, 1450.0], "rating_high": [1550.4, 1510.0], "forfeits": [0, 3]})


def test_a_value_and_its_interval_share_one_column_in_place_and_the_frame_is_untouched():
    table = leaderboard()
    shown = with_intervals(table)
    assert list(shown.columns) == ["rank", "player", "games", "win_rate (95%)", "rating (95%)", "forfeits"]
    assert list(shown["win_rate (95%)"]) == ["0.550 (0.480–0.610)", "0.400 (0.300–0.500)"]
    assert list(shown["rating (95%)"]) == ["1520 (1490–1550)", "1480 (1450–1510)"]
    assert list(table.columns) == list(leaderboard().columns)


def test_a_missing_value_shows_blank_and_an_empty_table_keeps_its_headings():
    table = leaderboard()
    table.loc[1, "ci_low"] = math.nan
    assert list(with_intervals(table)["win_rate (95%)"]) == ["0.550 (0.480–0.610)", ""]
    assert "win_rate (95%)" in list(with_intervals(table.iloc[:0]).columns)


def test_the_html_leaderboard_has_fewer_columns_and_every_column_of_a_table_without_intervals():
    html = html_table("Leaderboard", leaderboard())
    assert html.count("<th>") == 6 and "ci_low" not in html and "0.550 (0.480–0.610)" in html
    plain = pd.DataFrame({"player": ["nina"], "games": [4]})
    assert html_table("t", plain).count("<th>") == 2
