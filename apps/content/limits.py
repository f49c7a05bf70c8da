"""Limits the models enforce that the seed parser checks too; here, so the parser need not import the ORM."""

# The longest Markdown text a card, distractor or deck description holds: a card's answer is a paragraph or a few,
# and KaTeX and the pages' size grow with it (a megabyte took 11 s to render into 18 MB of HTML).
MAX_MARKDOWN = 20_000
# Deck.title's column (a seed file's title line).
MAX_TITLE = 200
