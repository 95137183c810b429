/// One step of the schema's history: SQL run once, recorded under its id.
///
/// Migrations are append-only. A released migration is never edited, reordered or removed;
/// a change to the schema is a new migration at the end of ``Schema/migrations``. A database
/// records the ids it has applied in `schema_migrations`, so an id it holds that this build
/// does not know means a newer hlsq wrote it.
struct Migration: Sendable {
    let id: String
    let sql: String
}

/// The tables of an hlsq database, and how a file becomes one.
///
/// Conventions, relied on by the code that reads and writes these tables:
/// - Every table is STRICT: a value of the wrong type is refused, never converted.
/// - A CHECK spells a choice of three or more values with OR, never `IN (…)`: SQLite builds
///   a temporary b-tree for such a list at every row it checks, which made inserts 2× slower.
/// - A `MediaTime` is two columns, `<name>_value` and `<name>_timescale`: a numeric time is
///   the exact value over a positive timescale; indefinite is (NULL, 0) and invalid is
///   (NULL, -1); (NULL, NULL) is no time at all (an optional that is nil, or a default that
///   was left out). A CHECK constraint on every pair allows nothing else.
/// - A loop's plays are an integer of at least 1, or NULL for "forever".
/// - An item's playhead, preferences and loop are stored only when they differ from the
///   defaults (a playhead of exactly 0/1, `has_preferences`, `has_loop`); otherwise their
///   columns are NULL, which costs nothing to store and lets a restore skip reading them.
///   The columns read most come first.
/// - `items` is the queues' lists, ordered by `rank` (see `Rank`); `history` holds copies of
///   items as they were when the player passed them, keyed by the serial the queue player
///   gave each entry. An item can be in both at once (a queue that repeats), under one id.
enum Schema {
    /// `PRAGMA application_id` of every hlsq database: "hlsq" in ASCII.
    static let applicationID: Int64 = 0x686C_7371

    static let migrations: [Migration] = [
        Migration(id: "1-queues-items-history-playback-journal", sql: """
            CREATE TABLE queues (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL,
                action_at_item_end TEXT NOT NULL
                    CHECK (action_at_item_end = 'advance' OR action_at_item_end = 'pause' OR action_at_item_end = 'none'),
                consume INTEGER NOT NULL CHECK (consume IN (0, 1)),
                loop_mode TEXT NOT NULL CHECK (loop_mode = 'off' OR loop_mode = 'item' OR loop_mode = 'queue'),
                loop_plays INTEGER CHECK (loop_plays >= 1),
                loop_start_value INTEGER,
                loop_start_timescale INTEGER,
                loop_end_value INTEGER,
                loop_end_timescale INTEGER,
                default_rate REAL NOT NULL,
                automatically_waits_to_minimize_stalling INTEGER NOT NULL
                    CHECK (automatically_waits_to_minimize_stalling IN (0, 1)),
                CHECK (loop_mode = 'item' OR (loop_plays IS NULL AND loop_start_timescale IS NULL)),
                CHECK ((loop_start_timescale IS NULL) = (loop_end_timescale IS NULL)),
                \(mediaTimeCheck("loop_start")),
                \(mediaTimeCheck("loop_end"))
            ) STRICT;

            -- The queues' lists. An item's id is assigned here, and stays with the item when it
            -- goes to the history and comes back.
            CREATE TABLE items (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                queue_id INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
                rank BLOB NOT NULL,
                \(itemColumns)
            ) STRICT;
            -- Listing a queue and finding an item's neighbours both walk this index.
            CREATE UNIQUE INDEX items_by_rank ON items (queue_id, rank);

            -- Copies of items as the player passed them, oldest serial first. No foreign key to
            -- items: an entry outlives the item's removal from the list.
            CREATE TABLE history (
                queue_id INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
                serial INTEGER NOT NULL,
                item_id INTEGER NOT NULL,
                \(itemColumns),
                PRIMARY KEY (queue_id, serial)
            ) STRICT;
            CREATE INDEX history_by_item ON history (item_id);

            -- One row per queue: what is current, and the rate to resume at (0 when paused).
            CREATE TABLE playback (
                queue_id INTEGER PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
                current_item_id INTEGER REFERENCES items (id) ON DELETE SET NULL,
                rate REAL NOT NULL
            ) STRICT;
            CREATE INDEX playback_by_current_item ON playback (current_item_id);

            -- The last events, for clients that resume after a restart. No foreign key: the
            -- journal keeps the events of a queue that was deleted.
            CREATE TABLE events (
                sequence INTEGER PRIMARY KEY,
                queue_id INTEGER,
                type TEXT NOT NULL,
                payload TEXT NOT NULL CHECK (json_valid(payload))
            ) STRICT;
            CREATE INDEX events_by_queue ON events (queue_id, sequence);
            """),
    ]

    /// The columns of an item and their checks, the same in `items` and in its `history`
    /// copies.
    private static let itemColumns = """
        url TEXT NOT NULL,
        title TEXT,
        kind TEXT NOT NULL CHECK (kind = 'hls' OR kind = 'mediaFile' OR kind = 'unknown'),
        status TEXT NOT NULL
            CHECK (status = 'unknown' OR status = 'loading' OR status = 'readyToPlay' OR status = 'failed'),
        error_domain TEXT,
        error_code INTEGER,
        error_message TEXT,
        media_selections TEXT CHECK (media_selections IS NULL OR json_valid(media_selections)),
        playhead_value INTEGER,
        playhead_timescale INTEGER,
        has_preferences INTEGER NOT NULL CHECK (has_preferences IN (0, 1)),
        preferred_forward_buffer_duration_value INTEGER,
        preferred_forward_buffer_duration_timescale INTEGER,
        preferred_peak_bit_rate REAL,
        forward_playback_end_time_value INTEGER,
        forward_playback_end_time_timescale INTEGER,
        reverse_playback_end_time_value INTEGER,
        reverse_playback_end_time_timescale INTEGER,
        has_loop INTEGER NOT NULL CHECK (has_loop IN (0, 1)),
        loop_plays INTEGER CHECK (loop_plays >= 1),
        loop_start_value INTEGER,
        loop_start_timescale INTEGER,
        loop_end_value INTEGER,
        loop_end_timescale INTEGER,
        CHECK ((status = 'failed')
            = (error_domain IS NOT NULL AND error_code IS NOT NULL AND error_message IS NOT NULL)),
        CHECK ((has_preferences = 1) = (preferred_forward_buffer_duration_timescale IS NOT NULL)
            AND (has_preferences = 1) = (preferred_peak_bit_rate IS NOT NULL)
            AND (has_preferences = 1
                OR (forward_playback_end_time_timescale IS NULL AND reverse_playback_end_time_timescale IS NULL))),
        CHECK (has_loop = 1 OR (loop_plays IS NULL AND loop_start_timescale IS NULL)),
        CHECK ((loop_start_timescale IS NULL) = (loop_end_timescale IS NULL)),
        \(["playhead", "preferred_forward_buffer_duration", "forward_playback_end_time",
            "reverse_playback_end_time", "loop_start", "loop_end"].map(mediaTimeCheck).joined(separator: ",\n"))
        """

    /// The CHECK of the `<name>_value` and `<name>_timescale` pair of a `MediaTime`: a value
    /// over a positive timescale, indefinite, invalid, or no time at all.
    private static func mediaTimeCheck(_ name: String) -> String {
        """
        CHECK ((\(name)_timescale IS NULL AND \(name)_value IS NULL)
            OR (\(name)_timescale >= -1 AND (\(name)_timescale > 0) = (\(name)_value IS NOT NULL)))
        """
    }
}
