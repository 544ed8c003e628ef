/**
 * A minimal protocol-buffers *writer*: just what encoding an ONNX ModelProto needs
 * (varints, length-delimited fields, packed repeated scalars). Little-endian floats.
 */
export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private buf = new Uint8Array(1024);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = new Uint8Array(Math.max(n, 1024));
  }

  private flush(): void {
    if (this.pos > 0) {
      this.chunks.push(this.buf.slice(0, this.pos));
      this.pos = 0;
    }
  }

  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  private tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  /** int32/int64/enum/bool field (wire type 0). Negative values are encoded as 64-bit two's complement. */
  int(field: number, value: number | bigint): this {
    return this.tag(field, 0).varint(value);
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    this.ensure(4);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4).setFloat32(0, value, true);
    this.pos += 4;
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2).varint(data.length);
    this.raw(data);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** A nested message, written by `fn` into a fresh writer. */
  message(field: number, fn: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    fn(inner);
    return this.bytes(field, inner.finish());
  }

  packedInts(field: number, values: ArrayLike<number | bigint>): this {
    const inner = new ProtoWriter();
    for (let i = 0; i < values.length; i++) inner.varint(values[i]);
    return this.bytes(field, inner.finish());
  }

  packedFloats(field: number, values: ArrayLike<number>): this {
    const data = new Uint8Array(values.length * 4);
    const view = new DataView(data.buffer);
    for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
    return this.bytes(field, data);
  }

  private raw(data: Uint8Array): void {
    if (data.length > 4096) {
      this.flush();
      this.chunks.push(data);
      return;
    }
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  finish(): Uint8Array {
    this.flush();
    let length = 0;
    for (const c of this.chunks) length += c.length;
    const out = new Uint8Array(length);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    this.chunks = [out];
    return out;
  }
}
