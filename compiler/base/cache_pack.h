// Many small cached values under keys, in one file instead of a file each: a build after one
// edit of 25,000 entries opened, read and closed 45,000 cache files (a parse result and a record
// each), five system calls a file, for a fifth of the build's system time. Git packs its objects
// for the same reason.
//
// Three files: the pack, which holds each value after its key, and is only ever appended to or
// replaced whole (renamed over); its index (<pack>.index), which lists every live key, sorted,
// with where its value lies, and is replaced whole; and a lock (<pack>.lock). A value is read
// back with its key, which must match. The pack's head holds a random id that its index names,
// and the index ends with its own SHA-256: an index of another pack, or a damaged one, finds
// nothing. So does a value read past the end, or a key that is not the one asked for.
//
// Only the process that holds the lock (flock) writes; one that cannot take it (another kbc is
// writing the same cache) only reads. A run killed while appending leaves bytes that no index
// names: dead space, as are the values a run dropped. When the dead space outgrows the live
// values, the commit writes the pack anew with the live values only.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kbc {

class CachePack {
 public:
  // The pack at `path` (its folder must exist); nothing is opened before the first use.
  explicit CachePack(std::string path);
  CachePack(const CachePack&) = delete;
  CachePack& operator=(const CachePack&) = delete;
  ~CachePack();  // commit(), then the lock is let go

  // The value stored under `key`, if any; from any thread.
  std::optional<std::string> find(std::string_view key);
  // Counts the value under `key`, if any, as found without reading it (drop_unused keeps it).
  void keep(std::string_view key);
  // Appends `value` under `key` to the pack at once; from any thread. Failing to write is not
  // an error: the value is not kept.
  void store(std::string_view key, std::string_view value);
  // Makes the commit drop every value that was neither found nor stored since the pack was
  // opened.
  void drop_unused() { drop_unused_ = true; }
  // Writes the index, when anything was stored or is dropped; the pack first, anew, when most
  // of it is dead. Once, with no find or store at the same time; the pack finds nothing after
  // it, and keeps nothing stored.
  void commit();
  // Whether `name`, a file in the pack's folder, is one of its three.
  bool owns(std::string_view name) const;

 private:
  using Id = std::array<unsigned char, 16>;
  struct Slot {
    std::uint64_t offset = 0;  // of the key, which the value follows
    std::uint64_t length = 0;  // of the value
  };
  struct Item {
    std::string_view key;  // in index_bytes_, or a key of added_
    Slot slot;
  };

  void open();
  void read_index();
  // The items of `bytes`, an index: none when it does not name this pack, or is not whole.
  std::vector<Item> index_items(std::string_view bytes) const;
  // Where `key` is in items_, if there.
  std::optional<std::size_t> find_item(std::string_view key) const;
  std::optional<std::string> read_value(std::string_view key, const Slot& slot) const;
  std::vector<Item> live_items() const;
  void write();  // what commit() writes, under mutex_
  bool write_pack_anew(std::vector<Item>& live);
  void write_index(const std::vector<Item>& live) const;

  std::string path_;
  bool drop_unused_ = false;
  std::once_flag opened_;
  int fd_ = -1;              // the pack: read-write when holding the lock
  int lock_fd_ = -1;         // held: this process writes
  Id id_{};                  // the pack's, from its head
  std::uint64_t end_ = 0;    // the pack's size, where values are appended
  std::string index_bytes_;  // the index read at opening
  std::vector<Item> items_;  // its items, sorted by key
  std::unordered_map<std::string_view, std::size_t> by_key_;  // where each is in items_
  std::unique_ptr<std::atomic<bool>[]> used_;                 // by items_' order
  std::mutex mutex_;                                          // guards what follows
  std::map<std::string, Slot, std::less<>> added_;            // stored since opening
  bool failed_ = false;                                       // a write failed: store no more
  bool committed_ = false;
};

}  // namespace kbc
