/** Bits per stream id of a layer's room: with HASHES hashes, ~1 % false "maybe"s when full. */
const BITS_PER_STREAM = 10;
const HASHES = 7;
/** The first layer's room; each next layer has twice the room of the one before. */
const FIRST_ROOM = 1 << 20;

/**
 * The order streams the store holds, as a Bloom filter: "certainly not" lets the write path take
 * a new order as new without reading its stream. It never forgets, so a stream it was told of is
 * never "certainly not"; an id never told of answers "maybe" (a read, as without the filter)
 * about 1 % of the time per layer.
 *
 * Memory: 10 bits per stream of room, in layers of 2^20, 2^21… streams (a scalable Bloom filter:
 * a full layer is kept and a new one, twice as large, takes the new ids): 1.25 MB up to a million
 * order streams, 19 MB for 15 million, when "maybe" is wrong ~4 % of the time.
 */
export class KnownStreams {
  private readonly layers: BloomLayer[];
  private added = 0;

  /** `room`: the first layer's (tests make it small). */
  constructor(private room = FIRST_ROOM) {
    this.layers = [new BloomLayer(room)];
  }

  add(streamId: string): void {
    if (this.added === this.room) {
      const next = new BloomLayer(this.layers[this.layers.length - 1].room * 2);
      this.layers.push(next);
      this.room += next.room;
    }
    hash(streamId);
    this.layers[this.layers.length - 1].add();
    this.added++;
  }

  /** False only for a stream never added. */
  mayHold(streamId: string): boolean {
    hash(streamId);
    for (const layer of this.layers) if (layer.holds()) return true;
    return false;
  }
}

class BloomLayer {
  private readonly bits: Uint32Array;
  private readonly size: number;

  constructor(readonly room: number) {
    this.bits = new Uint32Array((room * BITS_PER_STREAM) / 32);
    this.size = this.bits.length * 32;
  }

  /** Adds the id last hashed. */
  add(): void {
    for (let i = 0; i < HASHES; i++) {
      const bit = (h1 + i * h2) % this.size;
      this.bits[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  /** Whether the id last hashed may have been added. */
  holds(): boolean {
    for (let i = 0; i < HASHES; i++) {
      const bit = (h1 + i * h2) % this.size;
      if ((this.bits[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** The two hashes of the id last hashed: module variables, not an array per call (hot path). */
let h1 = 0;
let h2 = 0;

/** Two 32-bit multiplicative hashes (FNV-1a, and the same walk with MurmurHash2's multiplier). */
function hash(text: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  h1 = a >>> 0;
  // Odd, so the probes of one id land on distinct bits (a layer holds 5 × 2^k bits).
  h2 = ((b ^ (b >>> 15)) | 1) >>> 0;
}
