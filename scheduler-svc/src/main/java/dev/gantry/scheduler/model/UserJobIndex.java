package dev.gantry.scheduler.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Each user's job ids in increasing order, so that a listing of one user's jobs ({@code squeue -u}) reads that user's
 * jobs and not the whole queue: a million jobs of others cost it nothing. Eight bytes a job. A forgotten job's id is
 * dropped lazily: readers skip ids whose job is gone ({@link #idsAfter} takes the live jobs), and a user's list is
 * compacted once it holds more dead ids than live ones. Not thread-safe: {@link ClusterState}'s owner writes it.
 */
final class UserJobIndex {

    private static final class Ids {
        long[] ids = new long[4];
        int size;
        int dead;

        void add(long id) {
            if (size == ids.length) {
                ids = Arrays.copyOf(ids, size * 2);
            }
            if (size == 0 || ids[size - 1] < id) {
                ids[size++] = id;
                return;
            }
            // an id below the last (never in practice: ids are issued in order): keep the order
            int at = Arrays.binarySearch(ids, 0, size, id);
            if (at >= 0) {
                return;
            }
            at = -at - 1;
            System.arraycopy(ids, at, ids, at + 1, size - at);
            ids[at] = id;
            size++;
        }

        /** The index of the first id above {@code id}. */
        int after(long id) {
            int at = Arrays.binarySearch(ids, 0, size, id);
            return at >= 0 ? at + 1 : -at - 1;
        }
    }

    private final Map<String, Ids> byUser = new HashMap<>();

    /** A new job of {@code user}. */
    void added(String user, long id) {
        byUser.computeIfAbsent(user, u -> new Ids()).add(id);
    }

    /** A job of {@code user} forgotten; {@code live} tells which of the user's ids still name a job. */
    void removed(String user, java.util.function.LongPredicate live) {
        Ids list = byUser.get(user);
        if (list == null) {
            return;
        }
        list.dead++;
        if (list.dead * 2 > list.size) {
            int kept = 0;
            for (int i = 0; i < list.size; i++) {
                if (live.test(list.ids[i])) {
                    list.ids[kept++] = list.ids[i];
                }
            }
            list.size = kept;
            list.dead = 0;
            if (kept == 0) {
                byUser.remove(user);
            } else if (kept < list.ids.length / 4) {
                list.ids = Arrays.copyOf(list.ids, Math.max(4, kept * 2));
            }
        }
    }

    /**
     * The ids of {@code users}' jobs above {@code after}, in increasing order, possibly naming forgotten jobs (the
     * caller looks each up). Valid until the next write.
     */
    Iterator<Long> idsAfter(java.util.Collection<String> users, long after) {
        List<Cursor> cursors = new ArrayList<>();
        for (String user : users) {
            Ids list = byUser.get(user);
            if (list != null) {
                int from = list.after(after);
                if (from < list.size) {
                    cursors.add(new Cursor(list, from));
                }
            }
        }
        if (cursors.size() == 1) {
            return cursors.get(0);
        }
        PriorityQueue<Cursor> heads = new PriorityQueue<>((a, b) -> Long.compare(a.head(), b.head()));
        heads.addAll(cursors);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public Long next() {
                Cursor c = heads.poll();
                if (c == null) {
                    throw new NoSuchElementException();
                }
                long id = c.next();
                if (c.hasNext()) {
                    heads.add(c);
                }
                return id;
            }
        };
    }

    /** How many ids the index holds for {@code user}, forgotten ones not yet compacted away included (tests). */
    int held(String user) {
        Ids list = byUser.get(user);
        return list == null ? 0 : list.size;
    }

    private static final class Cursor implements Iterator<Long> {
        private final Ids list;
        private int at;

        Cursor(Ids list, int at) {
            this.list = list;
            this.at = at;
        }

        long head() {
            return list.ids[at];
        }

        @Override
        public boolean hasNext() {
            return at < list.size;
        }

        @Override
        public Long next() {
            if (at >= list.size) {
                throw new NoSuchElementException();
            }
            return list.ids[at++];
        }
    }
}
