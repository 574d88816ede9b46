"""The database schema as numbered migrations on ``PRAGMA user_version``.

What it is: ``MIGRATIONS[n]`` is the SQL that takes a database from version ``n`` to ``n + 1``;
``bot.store.db`` applies each inside one transaction together with its version bump.
What it is not: no queries and no game logic (those are in ``bot.store.repo``).

Never edit a migration that has shipped; append a new one.
"""

from __future__ import annotations

# The columns and tables migration 5 adds, the same on both backends.
_V5_COLUMNS = """
    -- Why a game ended without a winner when its channel, its server or the bot's access went
    -- away ('channel_gone', 'guild_gone', 'forbidden'); status is 'abandoned'.
    ALTER TABLE games ADD COLUMN end_reason TEXT;
    -- When the final message (result, cancel, abandon) and the quarantine notice were posted: a
    -- crash between the commit and the post leaves it NULL, and the bot posts it on start.
    ALTER TABLE games ADD COLUMN final_announced_at REAL;
    ALTER TABLE games ADD COLUMN quarantine_announced_at REAL;
    -- When a game with no turn timer was warned that it will end for idleness.
    ALTER TABLE games ADD COLUMN idle_warned_at REAL;
    -- 0: stored for history but not counted in standings (decided only by an absent opponent).
    -- A computer player's strength ('easy', 'normal', 'strong'); NULL for people.
    ALTER TABLE seats ADD COLUMN robot_level TEXT;
    -- Hints (issue 11): off when the host turns them off; practice games are never rated.
    ALTER TABLE games ADD COLUMN hints_off INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    -- Skill ratings (issue 12; ``bot.service.skill``): one openskill rating per server, player and
    -- variant, and over every variant together (variant '*'). Rebuilt from the rated results
    -- whenever a game is voided or restored, so they are always the replay of those results.
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        variant  TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, variant, user_id)
    );
    -- The overall rating each player had after each rated game (the chart of ``/rummy stats``).
    CREATE TABLE rating_history (
        guild_id    INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        game_id     INTEGER NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX rating_history_by_player ON rating_history(guild_id, user_id, finished_at);
    -- A manager reset the server's ratings: games finished before ``at`` no longer count in them.
    CREATE TABLE rating_resets (
        guild_id INTEGER PRIMARY KEY,
        at       REAL    NOT NULL,
        user_id  INTEGER NOT NULL
    );
    -- Server settings (issue 12): one row per server that changed any; NULL follows the bot's
    -- default (turn timer 5 minutes, public messages in the server's Discord language).
    CREATE TABLE server_settings (
        guild_id        INTEGER PRIMARY KEY,
        timer_minutes   REAL,
        language        TEXT,
        bots            INTEGER NOT NULL DEFAULT 1,
        closed_variants TEXT    NOT NULL DEFAULT ''
    );
    -- A server's default options for a variant (preset '') and its named presets ("casa").
    CREATE TABLE server_options (
        guild_id INTEGER NOT NULL,
        variant  TEXT    NOT NULL,
        preset   TEXT    NOT NULL,
        options  TEXT    NOT NULL,
        PRIMARY KEY (guild_id, variant, preset)
    );
    -- Members who may not host or join games in the server, with the manager's reason.
    CREATE TABLE server_bans (
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        reason    TEXT    NOT NULL DEFAULT '',
        banned_by INTEGER NOT NULL,
        at        REAL    NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    -- Points a manager added to (or took from) a player in a season (issue 12): they count in
    -- that season's standings as a marked line. Undoing one (from the audit log) keeps the row.
    CREATE TABLE adjustments (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        season     INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        points     INTEGER NOT NULL,
        reason     TEXT    NOT NULL DEFAULT '',
        manager_id INTEGER NOT NULL,
        at         REAL    NOT NULL,
        undone_at  REAL,
        undone_by  INTEGER,
        entry      INTEGER  -- its row in the audit log (the number ``/rummy-admin undo`` takes)
    );
    CREATE INDEX adjustments_by_season ON adjustments(guild_id, season);
    -- A closed season's standings, stored when it closes (``version`` 0) and again, amended, each
    -- time a manager voids or restores one of its games (1, 2...): the latest version is what
    -- ``/rummy scores season:N`` shows, so a closed season never changes by itself.
    CREATE TABLE season_standings (
        guild_id INTEGER NOT NULL,
        season   INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        lines    TEXT    NOT NULL,
        games    INTEGER NOT NULL,
        reason   TEXT    NOT NULL DEFAULT '',
        game_id  INTEGER,
        at       REAL    NOT NULL,
        PRIMARY KEY (guild_id, season, version)
    );
    -- Servers with results from before the ratings: the bot replays them once on start.
    INSERT INTO meta (key, value) SELECT 'ratings-replay:' || CAST(guild_id AS TEXT), '' FROM results
        GROUP BY guild_id;
    -- Games that ended before this migration were announced as they ended.
    UPDATE games SET final_announced_at = updated_at WHERE status NOT IN ('lobby', 'playing');
    UPDATE games SET quarantine_announced_at = quarantined_at WHERE quarantined_at IS NOT NULL;
    -- Issue 13: a player's rearrange builder draft, one per game and seat. ``base`` is a digest of
    -- the game's record when the draft was made: once the game moves on (another record) the
    -- draft is out of date and is discarded; ``version`` is the game's version it was last saved at.
    CREATE TABLE drafts (
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        base       TEXT    NOT NULL,
        state      TEXT    NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    -- Many tables in one channel (issue 12): a game played in a thread of its own, made from its
    -- lobby message. ``thread_id`` NULL: the game is played in ``channel_id`` itself (where the
    -- bot cannot make threads; then one game per channel, as before); 0: its thread is being
    -- made. ``thread_archived_at``: when the bot archived the thread after the game ended (the
    -- clock archives it RUMMY_THREAD_ARCHIVE_AFTER seconds after the final message was posted).
    -- Only games without a thread are one per channel now.
    ALTER TABLE games ADD COLUMN thread_id INTEGER;
    ALTER TABLE games ADD COLUMN thread_archived_at REAL;
    DROP INDEX games_one_active_per_channel;
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'playing') AND thread_id IS NULL;
    CREATE INDEX games_by_thread ON games(thread_id);
    -- Issue 12 (closed seasons per variant): each stored version of a closed season's standings
    -- (``season_standings``) is kept per variant too, for every variant the season has results
    -- in, so ``/rummy scores season:N variant:X`` shows them as they closed (or were amended).
    CREATE TABLE season_variant_standings (
        guild_id INTEGER NOT NULL,
        season   INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        variant  TEXT    NOT NULL,
        lines    TEXT    NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, version, variant)
    );
"""

MIGRATIONS: list[str] = [
    # 0 -> 1: lobbies and games, seats, the action log, results, and the bot's own settings.
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    -- One row per lobby or game. ``record`` is the game's RGN (notation.md): the database is the
    -- game, everything on Discord is a view of this row. ``version`` grows by one per change and
    -- is what the buttons' custom_ids carry.
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        host_id          INTEGER NOT NULL,
        variant          TEXT    NOT NULL,
        options          TEXT    NOT NULL DEFAULT '',
        timer_minutes    REAL    NOT NULL DEFAULT 5,
        locale           TEXT    NOT NULL DEFAULT 'es',
        status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'expired')),
        version          INTEGER NOT NULL DEFAULT 0,
        record           TEXT,
        seed             TEXT,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        lobby_expires_at REAL,
        turn_deadline    REAL,
        turn_reminded    INTEGER NOT NULL DEFAULT 0,
        window_deadline  REAL,
        next_deal_at     REAL,
        table_message_id INTEGER,
        table_posted_at  REAL,
        turn_message_id  INTEGER,
        lobby_message_id INTEGER,
        rematch_of       INTEGER REFERENCES games(id),
        finished_at      REAL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_by_status ON games(status);

    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        position  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        seat      TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        timeouts  INTEGER NOT NULL DEFAULT 0,
        resigned  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, position),
        UNIQUE (game_id, seat)
    );

    -- Every change a person (or the timer) made, in the transaction that made it. The unique
    -- interaction id is what makes two deliveries of one click apply once.
    CREATE TABLE actions (
        id             INTEGER PRIMARY KEY,
        game_id        INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version        INTEGER NOT NULL,
        user_id        INTEGER,
        kind           TEXT    NOT NULL,
        move           TEXT,
        interaction_id INTEGER UNIQUE,
        at             REAL    NOT NULL
    );
    CREATE INDEX actions_by_game ON actions(game_id, version);

    -- One row per seat of a finished game, written in the transaction that finished it.
    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        guild_id    INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        score       TEXT    NOT NULL,
        place       INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_guild ON results(guild_id, finished_at);
    """,
    # 1 -> 2: seasons per server, the season each result counts for, and the managers' audit log.
    """
    -- A server's seasons. Season 1 has no row until a manager starts season 2; the one open season
    -- has no ``ended_at``. Results written before this migration belong to season 1.
    CREATE TABLE seasons (
        guild_id   INTEGER NOT NULL,
        number     INTEGER NOT NULL CHECK (number >= 1),
        started_at REAL    NOT NULL,
        ended_at   REAL,
        started_by INTEGER,
        PRIMARY KEY (guild_id, number)
    );
    CREATE UNIQUE INDEX seasons_one_open_per_guild ON seasons(guild_id) WHERE ended_at IS NULL;

    -- The season open when the result was written, in the same transaction: a result counts for
    -- exactly one season, whatever the clocks say.
    ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 1;
    CREATE INDEX results_by_season ON results(guild_id, season);

    -- What server managers did with their powers (new season, kick, cancelling someone's game).
    CREATE TABLE audit (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        game_id  INTEGER,
        detail   TEXT    NOT NULL DEFAULT '',
        at       REAL    NOT NULL
    );
    CREATE INDEX audit_by_guild ON audit(guild_id, at);
    """,
    # 2 -> 3: results a server manager voided (they stay stored, and count again when restored),
    # and automatic new seasons.
    """
    -- A voided game's results count in no standings and no player's record; deleting the row
    -- restores them. Who voided it, when and why is also in the audit log.
    CREATE TABLE voided (
        game_id  INTEGER PRIMARY KEY REFERENCES games(id),
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        reason   TEXT    NOT NULL DEFAULT '',
        at       REAL    NOT NULL
    );

    -- A server whose seasons roll over by themselves: every week (Monday 00:00 UTC) or every month
    -- (the 1st, 00:00 UTC). The closing standings go to ``channel_id`` in ``locale``.
    CREATE TABLE season_schedules (
        guild_id   INTEGER PRIMARY KEY,
        every      TEXT    NOT NULL CHECK (every IN ('week', 'month')),
        channel_id INTEGER NOT NULL,
        locale     TEXT    NOT NULL,
        next_at    REAL    NOT NULL,
        set_by     INTEGER NOT NULL,
        set_at     REAL    NOT NULL
    );
    CREATE INDEX season_schedules_due ON season_schedules(next_at);
    """,
    # 3 -> 4: games whose record no longer loads (issue 15, reliability R23).
    """
    -- A game the engine cannot load (a damaged row, a record an engine change no longer reads) is
    -- set aside: the clock skips it and moves are refused; a manager can still cancel it.
    ALTER TABLE games ADD COLUMN quarantined_at REAL;
    ALTER TABLE games ADD COLUMN quarantine_reason TEXT;
    """,
    # 4 -> 5: games that end with their channel (issue 15 hole 2), what was announced (hole 6),
    # idle warnings (hole 8) and unrated results (hole 3). SQLite cannot alter a CHECK, so the
    # games table is rebuilt (sqlite.org/lang_altertable.html, "other kinds of table schema
    # changes", with foreign keys off while ``Database.migrate`` runs it); the child tables name
    # ``games`` and find the new one under the same name. PostgreSQL swaps the constraint instead
    # (``POSTGRES_MIGRATIONS``).
    """
    CREATE TABLE games_v5 (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        host_id          INTEGER NOT NULL,
        variant          TEXT    NOT NULL,
        options          TEXT    NOT NULL DEFAULT '',
        timer_minutes    REAL    NOT NULL DEFAULT 5,
        locale           TEXT    NOT NULL DEFAULT 'es',
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'expired', 'abandoned')),
        version          INTEGER NOT NULL DEFAULT 0,
        record           TEXT,
        seed             TEXT,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        lobby_expires_at REAL,
        turn_deadline    REAL,
        turn_reminded    INTEGER NOT NULL DEFAULT 0,
        window_deadline  REAL,
        next_deal_at     REAL,
        table_message_id INTEGER,
        table_posted_at  REAL,
        turn_message_id  INTEGER,
        lobby_message_id INTEGER,
        rematch_of       INTEGER REFERENCES games(id),
        finished_at      REAL,
        quarantined_at   REAL,
        quarantine_reason TEXT
    );
    INSERT INTO games_v5 SELECT * FROM games;
    DROP TABLE games;
    ALTER TABLE games_v5 RENAME TO games;
    CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX games_by_status ON games(status);
    """
    + _V5_COLUMNS,
    # 5 -> 6: interaction tokens of places the bot is not a member of (issue 24, docs/anywhere.md).
    """
    -- A token is a secret that expires 15 minutes after its interaction: kept only while it lives
    -- (rows past ``expires_at`` are deleted whenever one is written), so that after a restart, or
    -- in another process, a message is still edited with the token that made it.
    CREATE TABLE interaction_tokens (
        interaction_id INTEGER PRIMARY KEY,
        place          INTEGER NOT NULL,
        application_id INTEGER NOT NULL,
        token          TEXT    NOT NULL,
        expires_at     REAL    NOT NULL,
        sent           INTEGER NOT NULL DEFAULT 0,
        public         INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX interaction_tokens_by_place ON interaction_tokens(place, expires_at);
    -- Which token made which message (only while that token lives).
    CREATE TABLE token_messages (
        message_id     INTEGER PRIMARY KEY,
        interaction_id INTEGER NOT NULL,
        expires_at     REAL    NOT NULL
    );
    """,
    # 6 -> 7: tournaments (issue 22): events, their entrants and their tables (one game each).
    """
    -- An event run by the bot: a Swiss, knockout or league of games of one variant in one channel.
    -- ``stage``: 'signup', 'checkin', 'running' (a round's games are on), 'between' (the pause
    -- before the next round), 'finished', 'cancelled'. ``next_at``: the stage's next deadline
    -- (check-in opens, the start, the next round); NULL while paused or when none. ``version``
    -- moves with every change, so two shard processes never both pair a round.
    CREATE TABLE tournaments (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        name             TEXT    NOT NULL,
        variant          TEXT    NOT NULL,
        options          TEXT    NOT NULL DEFAULT '',
        format           TEXT    NOT NULL CHECK (format IN ('swiss', 'knockout', 'league')),
        rounds           INTEGER NOT NULL DEFAULT 0,
        table_size       INTEGER NOT NULL DEFAULT 2,
        timer_minutes    REAL    NOT NULL,
        rated            INTEGER NOT NULL DEFAULT 1,
        cap              INTEGER NOT NULL,
        signup_closes_at REAL    NOT NULL,
        checkin_opens_at REAL    NOT NULL,
        starts_at        REAL    NOT NULL,
        grace_seconds    REAL    NOT NULL,
        pause_seconds    REAL    NOT NULL,
        seed             TEXT    NOT NULL,
        locale           TEXT    NOT NULL,
        stage            TEXT    NOT NULL,
        round            INTEGER NOT NULL DEFAULT 0,
        next_at          REAL,
        paused           INTEGER NOT NULL DEFAULT 0,
        version          INTEGER NOT NULL DEFAULT 1,
        created_by       INTEGER NOT NULL,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        message_id       INTEGER,
        finished_at      REAL
    );
    CREATE INDEX tournaments_due ON tournaments(stage, next_at);
    -- A player of an event. Computer players have negative ids; ``robot_level`` set on a person's
    -- line: a manager replaced a no-show with a computer player (their games from then unrated).
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        user_id       INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        rating        REAL    NOT NULL DEFAULT 0,
        robot_level   TEXT,
        checked_in    INTEGER NOT NULL DEFAULT 0,
        dropped       INTEGER NOT NULL DEFAULT 0,
        joined_at     REAL    NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );
    -- A table of a round: its players (entrant ids in seat order, comma separated), its game (none
    -- for a bye or a forfeit decided before it began) and, once it ended, the places and game
    -- points in the same order. The key makes a round paired once, whoever pairs it.
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round         INTEGER NOT NULL,
        number        INTEGER NOT NULL,
        players       TEXT    NOT NULL,
        game_id       INTEGER UNIQUE REFERENCES games(id),
        places        TEXT,
        points        TEXT,
        forfeit       INTEGER NOT NULL DEFAULT 0,
        void          INTEGER NOT NULL DEFAULT 0,
        started_at    REAL    NOT NULL,
        ended_at      REAL,
        PRIMARY KEY (tournament_id, round, number)
    );
    """,
]

# Migrations PostgreSQL runs differently from SQLite's text (by index in ``MIGRATIONS``).
POSTGRES_MIGRATIONS: dict[int, str] = {
    4: """
    ALTER TABLE games DROP CONSTRAINT games_status_check;
    ALTER TABLE games ADD CONSTRAINT games_status_check
        CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'expired', 'abandoned'));
    """
    + _V5_COLUMNS,
}

SCHEMA_VERSION = len(MIGRATIONS)
