#include "base/cache_pack.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "base/byte_io.h"
#include "base/digest.h"
#include "base/file_system.h"

namespace kbc {
namespace {

constexpr std::string_view kPackMagic = "kbc cache pack 1\n";
constexpr std::string_view kIndexMagic = "kbc cache pack index 1\n";
constexpr std::size_t kIdSize = 16;
constexpr std::size_t kHeadSize = kPackMagic.size() + kIdSize;
constexpr std::size_t kDigestSize = 64;  // Digest::hex()

// Writes the pieces at `offset`, one after the other.
bool write_pieces(int fd, std::initializer_list<std::string_view> pieces, std::uint64_t offset) {
  for (const std::string_view piece : pieces) {
    if (!write_at(fd, piece, offset)) return false;
    offset += piece.size();
  }
  return true;
}

}  // namespace

CachePack::CachePack(std::string path) : path_(std::move(path)) {}

CachePack::~CachePack() {
  commit();
  if (fd_ >= 0) ::close(fd_);
  if (lock_fd_ >= 0) ::close(lock_fd_);  // lets the lock go
}

void CachePack::open() {
  std::call_once(opened_, [this] {
    // No file of the cache is opened through a link.
    lock_fd_ = ::open((path_ + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (lock_fd_ >= 0 && ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock_fd_);
      lock_fd_ = -1;
    }
    fd_ = ::open(path_.c_str(),
                 O_CLOEXEC | O_NOFOLLOW | (lock_fd_ >= 0 ? O_RDWR | O_CREAT : O_RDONLY), 0644);
    if (fd_ < 0) return;
    std::string head(kHeadSize, '\0');
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !read_at(fd_, head.data(), head.size(), 0) ||
        !head.starts_with(kPackMagic)) {
      // No pack, or not one: a writer starts an empty one.
      ::close(fd_);
      fd_ = -1;
      if (lock_fd_ < 0) return;
      std::vector<Item> none;
      write_pack_anew(none);
      return;
    }
    std::memcpy(id_.data(), head.data() + kPackMagic.size(), kIdSize);
    end_ = static_cast<std::uint64_t>(st.st_size);
    read_index();
  });
}

// The index, when it names this pack, is whole and fits in it; else none (every value is dead).
void CachePack::read_index() {
  std::optional<std::string> read = read_whole_file(path_ + ".index");
  if (!read) return;
  index_bytes_ = std::move(*read);  // the items' keys are views into it
  std::vector<Item> items = index_items(index_bytes_);
  if (items.empty()) {
    std::string().swap(index_bytes_);
    return;
  }
  items_ = std::move(items);
  by_key_.reserve(items_.size());
  for (std::size_t i = 0; i < items_.size(); ++i) by_key_.emplace(items_[i].key, i);
  used_ = std::make_unique<std::atomic<bool>[]>(items_.size());
}

std::vector<CachePack::Item> CachePack::index_items(std::string_view bytes) const {
  if (bytes.size() < kIndexMagic.size() + kIdSize + kDigestSize) return {};
  const std::string_view body = bytes.substr(0, bytes.size() - kDigestSize);
  if (!body.starts_with(kIndexMagic) ||
      body.substr(kIndexMagic.size(), kIdSize) !=
          std::string_view(reinterpret_cast<const char*>(id_.data()), kIdSize) ||
      Digest().add(body).hex() != bytes.substr(body.size()))
    return {};
  ByteReader in(body.substr(kIndexMagic.size() + kIdSize));
  std::uint64_t count = 0;
  // An item takes at least its key's size, offset and length: 20 bytes.
  if (!in.take_count(count, 20)) return {};
  std::vector<Item> items(count);
  for (Item& item : items) {
    if (!in.take_text(item.key) || !in.take(item.slot.offset) || !in.take(item.slot.length))
      return {};
    if (item.slot.offset < kHeadSize || item.slot.offset > end_ ||
        end_ - item.slot.offset < item.key.size() ||
        end_ - item.slot.offset - item.key.size() < item.slot.length)
      return {};
  }
  if (in.left() != 0) return {};
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (items[i - 1].key >= items[i].key) return {};
  }
  return items;
}

// Through a table: a binary search over the items was some twenty comparisons, each a cache miss
// on a key of its own (3% of a build's CPU after one edit at 100,000 entries).
std::optional<std::size_t> CachePack::find_item(std::string_view key) const {
  const auto item = by_key_.find(key);
  if (item == by_key_.end()) return std::nullopt;
  return item->second;
}

std::optional<std::string> CachePack::read_value(std::string_view key, const Slot& slot) const {
  std::string bytes(key.size() + slot.length, '\0');
  if (!read_at(fd_, bytes.data(), bytes.size(), slot.offset) || !bytes.starts_with(key))
    return std::nullopt;
  bytes.erase(0, key.size());
  return bytes;
}

std::optional<std::string> CachePack::find(std::string_view key) {
  open();
  if (fd_ < 0) return std::nullopt;
  if (const std::optional<std::size_t> item = find_item(key)) {
    used_[*item].store(true, std::memory_order_relaxed);
    return read_value(key, items_[*item].slot);
  }
  Slot slot;
  {
    const std::lock_guard lock(mutex_);
    const auto added = added_.find(key);
    if (added == added_.end()) return std::nullopt;
    slot = added->second;
  }
  return read_value(key, slot);
}

void CachePack::keep(std::string_view key) {
  open();
  if (fd_ < 0) return;
  if (const std::optional<std::size_t> item = find_item(key))
    used_[*item].store(true, std::memory_order_relaxed);
}

void CachePack::store(std::string_view key, std::string_view value) {
  open();
  const std::lock_guard lock(mutex_);
  if (lock_fd_ < 0 || fd_ < 0 || failed_ || committed_) return;
  if (!write_pieces(fd_, {key, value}, end_)) {
    failed_ = true;  // what it left past end_ is dead space
    return;
  }
  added_[std::string(key)] = {end_, value.size()};
  end_ += key.size() + value.size();
}

// The values the index keeps: the stored ones, and the others unless unused ones are dropped.
std::vector<CachePack::Item> CachePack::live_items() const {
  std::vector<Item> live;
  auto added = added_.begin();
  for (std::size_t i = 0; i < items_.size(); ++i) {
    for (; added != added_.end() && added->first < items_[i].key; ++added)
      live.push_back({added->first, added->second});
    if (added != added_.end() && added->first == items_[i].key) continue;  // stored again
    if (!drop_unused_ || used_[i].load(std::memory_order_relaxed)) live.push_back(items_[i]);
  }
  for (; added != added_.end(); ++added) live.push_back({added->first, added->second});
  return live;
}

void CachePack::commit() {
  const std::lock_guard lock(mutex_);
  if (committed_) return;
  committed_ = true;
  if (lock_fd_ >= 0 && fd_ >= 0) write();
  // The index read is let go (13 MB at 100,000 entries, alive through the lint otherwise).
  std::vector<Item>().swap(items_);
  std::unordered_map<std::string_view, std::size_t>().swap(by_key_);
  std::string().swap(index_bytes_);
  used_.reset();
  added_.clear();
}

void CachePack::write() {
  std::vector<Item> live = live_items();
  if (added_.empty() && live.size() == items_.size()) return;  // the index is still true
  std::uint64_t live_bytes = 0;
  for (const Item& item : live) live_bytes += item.key.size() + item.slot.length;
  const std::uint64_t held = end_ - kHeadSize;
  if (held > live_bytes && held - live_bytes > live_bytes && !write_pack_anew(live)) return;
  write_index(live);
}

// A pack of the `live` values (read from the current one) under a new id, renamed over the
// current one; `live` then says where they are in it.
bool CachePack::write_pack_anew(std::vector<Item>& live) {
  Id id;
  std::random_device random;
  for (unsigned char& byte : id) byte = static_cast<unsigned char>(random());
  const std::string temporary = path_ + ".tmp-" + std::to_string(::getpid());
  const int fd =
      ::open(temporary.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return false;
  const std::string_view id_bytes(reinterpret_cast<const char*>(id.data()), kIdSize);
  bool ok = write_pieces(fd, {kPackMagic, id_bytes}, 0);
  std::uint64_t end = kHeadSize;
  std::vector<Item> moved;
  for (const Item& item : live) {
    if (!ok) break;
    const std::optional<std::string> value = read_value(item.key, item.slot);
    if (!value) continue;  // unreadable: dropped
    ok = write_pieces(fd, {item.key, *value}, end);
    moved.push_back({item.key, {end, value->size()}});
    end += item.key.size() + value->size();
  }
  if (!ok || ::rename(temporary.c_str(), path_.c_str()) != 0) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return false;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  id_ = id;
  end_ = end;
  live = std::move(moved);
  return true;
}

void CachePack::write_index(const std::vector<Item>& live) const {
  std::string out(kIndexMagic);
  out.append(reinterpret_cast<const char*>(id_.data()), kIdSize);
  put_number(out, std::uint64_t{live.size()});
  for (const Item& item : live) {
    put_text(out, item.key);  // a key is a digest's hex
    put_number(out, item.slot.offset);
    put_number(out, item.slot.length);
  }
  out += Digest().add(out).hex();
  replace_file(path_ + ".index", out);
}

bool CachePack::owns(std::string_view name) const {
  const std::string_view pack = std::string_view(path_).substr(path_.rfind('/') + 1);
  if (!name.starts_with(pack)) return false;
  name.remove_prefix(pack.size());
  return name.empty() || name == ".index" || name == ".lock";
}

}  // namespace kbc
