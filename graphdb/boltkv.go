//go:build !js

package graphdb

import (
	"bytes"
	"context"
	"errors"

	hkv "github.com/hidal-go/hidalgo/kv"
	bolt "go.etcd.io/bbolt"
)

// boltKV is the key-value layer Cayley's kv quad store runs on (hidalgo's
// kv.KV), over go.etcd.io/bbolt, the maintained fork of boltdb/bolt: the
// file format is the same, so workspaces written by boltdb/bolt open
// unchanged, and bbolt passes Go's pointer checks under -race where
// boltdb/bolt v1.3.1 does not.
//
// It follows hidalgo's own bolt adapter (nested keys are nested buckets)
// and adds one thing Loom needs: a batch, a single bolt write transaction
// that several of Cayley's transactions run in. Cayley v0.7.7's kv
// ApplyDeltas drops a direction of an added quad whose value another quad
// of the same call deletes more often than it adds (a predicate shared by
// two removed documents and one re-added, say), so Store.Apply runs its
// removals and its additions as two Cayley transactions; the batch keeps
// them one bolt commit, all or nothing.
//
// A boltKV is used by one goroutine at a time while a batch is open (the
// Store's lock sees to it): Cayley's reads then go through the batch too,
// seeing its writes, and bolt never has a read transaction open beside the
// write transaction in the same goroutine (which could deadlock on a
// remap).
type boltKV struct {
	db    *bolt.DB
	outer *bolt.Tx // the open batch, or nil
}

var _ hkv.KV = (*boltKV)(nil)

func (k *boltKV) Close() error { return k.db.Close() }

// Tx starts a transaction, or joins the open batch.
func (k *boltKV) Tx(rw bool) (hkv.Tx, error) {
	if k.outer != nil {
		return &boltTx{tx: k.outer, joined: true}, nil
	}
	tx, err := k.db.Begin(rw)
	if err != nil {
		return nil, err
	}
	return &boltTx{tx: tx}, nil
}

// begin opens a batch: every transaction until commit or rollback joins it.
func (k *boltKV) begin() error {
	if k.outer != nil {
		return errors.New("graph store: a batch is already open")
	}
	tx, err := k.db.Begin(true)
	if err != nil {
		return err
	}
	k.outer = tx
	return nil
}

// commit commits the open batch.
func (k *boltKV) commit() error {
	tx := k.outer
	if tx == nil {
		return errors.New("graph store: no batch is open")
	}
	err := tx.Commit() // a panic inside leaves the batch to rollback
	k.outer = nil
	return err
}

// rollback abandons the open batch, if any, whatever state a panic left
// it in: bolt holds its writer's lock until the transaction ends.
func (k *boltKV) rollback() {
	tx := k.outer
	if tx == nil {
		return
	}
	k.outer = nil
	defer func() { _ = recover() }()
	_ = tx.Rollback()
}

// boltTx is one transaction, or a part of the open batch (joined): then
// Commit leaves the committing to the batch, and Close without Commit
// (Cayley's way of giving up) does not roll it back either; the batch's
// owner rolls back when any part failed, since it returned an error.
type boltTx struct {
	tx     *bolt.Tx
	joined bool
}

func (t *boltTx) root() *bolt.Bucket { return t.tx.Cursor().Bucket() }

// bucket walks to the bucket that holds key's last part.
func (t *boltTx) bucket(key hkv.Key) (*bolt.Bucket, hkv.Key) {
	if len(key) <= 1 {
		return t.root(), key
	}
	b := t.tx.Bucket(key[0])
	key = key[1:]
	for b != nil && len(key) > 1 {
		b = b.Bucket(key[0])
		key = key[1:]
	}
	return b, key
}

func (t *boltTx) Get(_ context.Context, key hkv.Key) (hkv.Value, error) {
	b, k := t.bucket(key)
	if b == nil || len(k) != 1 {
		return nil, hkv.ErrNotFound
	}
	v := b.Get(k[0])
	if v == nil {
		return nil, hkv.ErrNotFound
	}
	return v, nil
}

func (t *boltTx) GetBatch(_ context.Context, keys []hkv.Key) ([]hkv.Value, error) {
	vals := make([]hkv.Value, len(keys))
	for i, key := range keys {
		if b, k := t.bucket(key); b != nil && len(k) == 1 {
			vals[i] = b.Get(k[0])
		}
	}
	return vals, nil
}

func (t *boltTx) Commit(context.Context) error {
	if t.joined {
		return nil
	}
	return t.tx.Commit()
}

func (t *boltTx) Close() error {
	if t.joined {
		return nil
	}
	err := t.tx.Rollback()
	if errors.Is(err, bolt.ErrTxClosed) { // Close after Commit
		return nil
	}
	return err
}

func (t *boltTx) Put(key hkv.Key, v hkv.Value) error {
	var (
		b   *bolt.Bucket
		err error
	)
	if len(key) <= 1 {
		b = t.root()
	} else {
		b, err = t.tx.CreateBucketIfNotExists(key[0])
		key = key[1:]
	}
	for err == nil && b != nil && len(key) > 1 {
		b, err = b.CreateBucketIfNotExists(key[0])
		key = key[1:]
	}
	if err != nil {
		return err
	}
	if len(key[0]) == 0 && len(v) == 0 {
		return nil // the bucket was the point
	}
	return b.Put(key[0], v)
}

func (t *boltTx) Del(key hkv.Key) error {
	b, k := t.bucket(key)
	if b == nil || len(k) != 1 {
		return nil
	}
	return b.Delete(k[0])
}

func (t *boltTx) Scan(pref hkv.Key) hkv.Iterator {
	b, p := t.bucket(pref)
	if b == nil || len(p) > 1 {
		return &boltIterator{} // a bucket on the way does not exist
	}
	root := pref[:len(pref)-len(p)]
	return &boltIterator{b: []*bolt.Bucket{b}, pref: p, root: root.Clone()}
}

// boltIterator walks the keys under a prefix, descending into nested
// buckets.
type boltIterator struct {
	root hkv.Key // the buckets above the current key, for Key
	pref hkv.Key // what every key must start with, per level
	b    []*bolt.Bucket
	c    []*bolt.Cursor
	k, v []byte
}

func (it *boltIterator) Next(context.Context) bool {
	for len(it.b) > 0 {
		i := len(it.b) - 1
		if len(it.c) < len(it.b) {
			c := it.b[i].Cursor()
			it.c = append(it.c, c)
			if i >= len(it.pref) {
				it.k, it.v = c.First()
			} else {
				it.k, it.v = c.Seek(it.pref[i])
			}
		} else {
			it.k, it.v = it.c[i].Next()
		}
		if it.k != nil && (i >= len(it.pref) || bytes.HasPrefix(it.k, it.pref[i])) {
			if it.v == nil { // a nested bucket
				if nb := it.b[i].Bucket(it.k); nb != nil {
					it.b = append(it.b, nb)
					it.root = append(it.root, it.k)
					continue
				}
			}
			return true
		}
		// This level is done: back to the bucket above.
		it.c = it.c[:len(it.c)-1]
		it.b = it.b[:len(it.b)-1]
		if len(it.root) > 0 {
			it.root = it.root[:len(it.root)-1]
		}
	}
	return false
}

func (it *boltIterator) Key() hkv.Key {
	if len(it.b) == 0 {
		return nil
	}
	k := it.root.Clone()
	return append(k, append([]byte{}, it.k...))
}

func (it *boltIterator) Val() hkv.Value { return it.v }
func (it *boltIterator) Err() error     { return nil }
func (it *boltIterator) Close() error {
	*it = boltIterator{}
	return nil
}
