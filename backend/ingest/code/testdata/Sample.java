/*
 * Copyright the Loom authors.
 */
package org.loom.index;

import java.io.IOException;
import java.util.List;
import java.util.ArrayList;
import static java.util.Objects.requireNonNull;
import org.loom.model.*;

/**
 * Reads documents from a source.
 */
public interface Reader extends AutoCloseable {
    /** The next document, or null at the end. */
    Document next() throws IOException;

    int count();
}

/** Ranks search results. */
public abstract class Ranker<T extends Document> extends Scorer implements Comparable<Ranker<T>>, Reader {
    public static final int MAX_RESULTS = 100;
    private final List<T> docs = new ArrayList<>();
    protected double boost;

    /**
     * Makes a ranker with a boost.
     */
    protected Ranker(double boost) {
        this.boost = boost;
    }

    /** Scores one document. */
    public abstract double score(T doc);

    @Override
    public int compareTo(Ranker<T> other) {
        return Double.compare(boost, other.boost);
    }

    public List<T> top(int n) throws IOException {
        requireNonNull(docs);
        List<T> out = new ArrayList<>(docs);
        out.sort((a, b) -> Double.compare(score(b), score(a)));
        return out.subList(0, Math.min(n, MAX_RESULTS));
    }

    private static int clamp(int v) {
        return Math.max(0, v);
    }

    /** One scored hit. */
    public static class Hit {
        final Document doc;
        final double score;

        Hit(Document doc, double score) {
            this.doc = doc;
            this.score = score;
        }
    }

    enum Mode {
        FAST,
        EXACT;

        boolean slow() {
            return this == EXACT;
        }
    }
}

record Pair(String key, int value) {
    Pair {
        requireNonNull(key);
    }
}
