import {
  type AttrValue,
  encodeModel,
  ONNX_FLOAT,
  ONNX_INT64,
  type OnnxGraph,
  type OnnxNode,
  type OnnxTensor,
} from './onnx.ts';
import type { TfjsAttr, TfjsModel, TfjsNode } from './tfjs-graph.ts';

/**
 * TF.js graph model → ONNX (opset 17), for the ops used by the BlazePose, hand, face-mesh and iris models.
 *
 * - Shapes are static: the batch dimension is fixed to 1 and every other dimension comes from the model's
 *   input signature, so `Shape`/`StridedSlice`/`Pack` sub-graphs are folded into constants here.
 * - TF is NHWC, ONNX convolutions are NCHW. Each 4-D activation carries a layout tag; convolution-like ops
 *   consume and produce NCHW, element-wise ops keep whatever layout they get, and a Transpose is inserted
 *   only where an op needs the other layout (reshapes, graph outputs). So a conv tower has no transposes.
 * - Unused outputs can be pruned (`outputs` option) to skip their sub-graphs at run time.
 * - Unknown ops fail with an error naming the op and the node.
 */

export const CONVERTER_VERSION = 3;
const OPSET = 17;

export interface ConvertOptions {
  /** Signature output keys (or TF tensor names) to keep; default all signature outputs. */
  outputs?: string[];
  /** Fixed input size [height, width] for models whose signature leaves it open. */
  inputSize?: [number, number];
}

export interface ConvertedModel {
  onnx: Uint8Array;
  inputName: string;
  /** Input shape, NHWC, batch 1. */
  inputShape: number[];
  /** ONNX output names (signature keys) with their NHWC shapes. */
  outputs: { name: string; shape: number[] }[];
  /** TF op histogram of the source graph. */
  ops: Record<string, number>;
}

export class UnsupportedOpError extends Error {
  constructor(
    readonly op: string,
    readonly node: string,
  ) {
    super(`unsupported TF.js op '${op}' (node ${node}): the converter cannot translate it to ONNX`);
    this.name = 'UnsupportedOpError';
  }
}

type Layout = 'nhwc' | 'nchw';
type ConstData = Float32Array | Int32Array;

interface Value {
  /** ONNX tensor name (for runtime values). */
  name: string;
  /** TF (logical, NHWC) shape. */
  shape: number[];
  layout: Layout;
  dtype: 'float32' | 'int32';
  /** Set for compile-time constants. */
  constant?: ConstData;
}

const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];

function b64(s: string | undefined): string {
  return s ? Buffer.from(s, 'base64').toString('utf8') : '';
}
function ints(a: TfjsAttr | undefined): number[] {
  return (a?.list?.i ?? []).map(Number);
}
function int(a: TfjsAttr | undefined, dflt = 0): number {
  return a?.i === undefined ? dflt : Number(a.i);
}
function bool(a: TfjsAttr | undefined): boolean {
  return a?.b === true;
}
function size(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Transposes a dense row-major array. */
function transposeData<T extends ConstData>(data: T, shape: number[], perm: number[]): T {
  const rank = shape.length;
  const outShape = perm.map((p) => shape[p]);
  const inStrides = new Array<number>(rank);
  let s = 1;
  for (let i = rank - 1; i >= 0; i--) {
    inStrides[i] = s;
    s *= shape[i];
  }
  const out = new (data.constructor as new (n: number) => T)(data.length);
  const idx = new Array<number>(rank).fill(0);
  for (let o = 0; o < data.length; o++) {
    let src = 0;
    for (let d = 0; d < rank; d++) src += idx[d] * inStrides[perm[d]];
    out[o] = data[src];
    for (let d = rank - 1; d >= 0; d--) {
      if (++idx[d] < outShape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

function samePads(inSize: number, k: number, stride: number, dilation: number): [number, number] {
  const out = Math.ceil(inSize / stride);
  const total = Math.max((out - 1) * stride + (k - 1) * dilation + 1 - inSize, 0);
  const begin = Math.floor(total / 2);
  return [begin, total - begin];
}

class Builder {
  nodes: OnnxNode[] = [];
  initializers: OnnxTensor[] = [];
  private counter = 0;
  private constCache = new Map<string, string>();
  private layoutCache = new Map<string, Value>();

  unique(base: string): string {
    return `${base}__${this.counter++}`;
  }

  node(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}, base = op): string {
    const out = this.unique(base);
    this.nodes.push({ op, inputs, outputs: [out], name: out, attrs });
    return out;
  }

  floatInit(data: Float32Array, dims: number[], base: string): string {
    const name = this.unique(base);
    this.initializers.push({ name, dims, dataType: ONNX_FLOAT, data });
    return name;
  }

  int64Init(values: number[], base = 'const_i64', dims = [values.length]): string {
    const key = `${dims.join('x')}:${values.join(',')}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.unique(base);
    this.initializers.push({
      name,
      dims,
      dataType: ONNX_INT64,
      data: BigInt64Array.from(values.map(BigInt)),
    });
    this.constCache.set(key, name);
    return name;
  }

  scalarFloat(v: number): string {
    const key = `f:${v}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.floatInit(Float32Array.of(v), [], 'const_f');
    this.constCache.set(key, name);
    return name;
  }

  /** Returns the value in the requested layout (inserting one cached Transpose if needed). */
  as(v: Value, layout: Layout): Value {
    if (v.shape.length !== 4 || v.layout === layout) return v;
    if (v.constant) return { ...v, layout }; // constants are materialised in the needed layout on use
    const key = `${v.name}:${layout}`;
    const hit = this.layoutCache.get(key);
    if (hit) return hit;
    const perm = layout === 'nchw' ? NHWC_TO_NCHW : NCHW_TO_NHWC;
    const name = this.node('Transpose', [v.name], { perm }, 'transpose');
    const out: Value = { name, shape: v.shape, layout, dtype: v.dtype };
    this.layoutCache.set(key, out);
    return out;
  }

  /** ONNX name of a value, materialising constants as initializers (in the value's layout). */
  ref(v: Value, base = 'const'): string {
    if (!v.constant) return v.name;
    const key = `${v.name}:${v.layout}`;
    const hit = this.constCache.get(key);
    if (hit) return hit;
    let name: string;
    if (v.dtype === 'int32') {
      name = this.int64Init(Array.from(v.constant), base, v.shape);
    } else {
      let data = v.constant as Float32Array;
      let dims = v.shape;
      if (v.shape.length === 4 && v.layout === 'nchw') {
        data = transposeData(data, v.shape, NHWC_TO_NCHW);
        dims = NHWC_TO_NCHW.map((p) => v.shape[p]);
      }
      name = this.floatInit(data, dims, base);
    }
    this.constCache.set(key, name);
    return name;
  }

  /** A per-channel constant (shape [C] or broadcastable) reshaped for an NCHW operand of rank 4. */
  channelConst(v: Value, channels: number): string {
    if (!v.constant) throw new Error('channelConst needs a constant');
    const n = size(v.shape);
    if (n === 1) return this.ref({ ...v, shape: [] });
    if (n !== channels) throw new Error(`per-channel constant of size ${n} for ${channels} channels`);
    return this.floatInit(Float32Array.from(v.constant), [channels, 1, 1], 'chan');
  }
}

/** Broadcast shape of two NHWC shapes. */
function broadcast(a: number[], b: number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    out.push(x === 1 ? y : x);
  }
  return out;
}

export function convertTfjsToOnnx(model: TfjsModel, options: ConvertOptions = {}): ConvertedModel {
  const nodes = model.json.modelTopology.node;
  const byName = new Map<string, TfjsNode>();
  const ops: Record<string, number> = {};
  for (const n of nodes) {
    byName.set(n.name, n);
    ops[n.op] = (ops[n.op] ?? 0) + 1;
  }
  const supported = new Set([...Object.keys(HANDLERS), 'Const', 'Placeholder']);
  // Fail early, naming every unknown op.
  const unknown = nodes.filter((n) => !supported.has(n.op));
  if (unknown.length > 0) throw new UnsupportedOpError(unknown[0].op, unknown[0].name);

  // Outputs to keep.
  const sigOutputs = model.json.signature?.outputs ?? {};
  let wanted = Object.entries(sigOutputs).map(([key, o]) => ({ key, tensor: o.name }));
  if (wanted.length === 0) {
    // No signature: outputs are nodes nobody consumes.
    const consumed = new Set(
      nodes.flatMap((n) => (n.input ?? []).map((i) => i.replace(/^\^/, '').split(':')[0])),
    );
    wanted = nodes
      .filter((n) => !consumed.has(n.name) && n.op !== 'Const')
      .map((n) => ({ key: n.name, tensor: `${n.name}:0` }));
  }
  if (options.outputs) {
    const keep = new Set(options.outputs);
    const missing = options.outputs.filter((o) => !wanted.some((w) => w.key === o || w.tensor === o));
    if (missing.length) throw new Error(`unknown model output(s): ${missing.join(', ')}`);
    wanted = wanted.filter((w) => keep.has(w.key) || keep.has(w.tensor));
  }
  wanted.sort((a, b) => a.key.localeCompare(b.key));

  // Input.
  const placeholder = nodes.find((n) => n.op === 'Placeholder');
  if (!placeholder) throw new Error('model has no input placeholder');
  const dims = (placeholder.attr?.shape?.shape?.dim ?? []).map((d) => Number(d.size));
  if (dims.length !== 4) throw new Error(`expected a 4-D image input, got rank ${dims.length}`);
  const inputShape = [1, dims[1], dims[2], dims[3]];
  if (options.inputSize) [inputShape[1], inputShape[2]] = options.inputSize;
  if (inputShape.some((d) => !(d > 0))) throw new Error(`input size is not fixed: ${dims.join('x')}`);

  const b = new Builder();
  const values = new Map<string, Value>();
  values.set(placeholder.name, {
    name: placeholder.name,
    shape: inputShape,
    layout: 'nhwc',
    dtype: 'float32',
  });

  const visiting = new Set<string>();
  const resolve = (ref: string): Value => {
    const [nodeName, idx] = ref.split(':');
    if (idx && idx !== '0') throw new Error(`multi-output reference ${ref} is not supported`);
    const hit = values.get(nodeName);
    if (hit) return hit;
    const node = byName.get(nodeName);
    if (!node) throw new Error(`graph references unknown node ${nodeName}`);
    if (visiting.has(nodeName)) throw new Error(`cycle at ${nodeName}`);
    visiting.add(nodeName);
    let v: Value;
    if (node.op === 'Const') {
      const w = model.weights.get(node.name);
      if (!w) throw new Error(`constant ${node.name} has no weight data`);
      v = { name: node.name, shape: w.shape, layout: 'nhwc', dtype: w.dtype, constant: w.data };
    } else {
      const inputs = (node.input ?? []).filter((i) => !i.startsWith('^')).map(resolve);
      v = HANDLERS[node.op](b, node, inputs);
    }
    visiting.delete(nodeName);
    values.set(nodeName, v);
    return v;
  };

  const outputs: { name: string; shape: number[] }[] = [];
  const outputInfos: OnnxGraph['outputs'] = [];
  for (const w of wanted) {
    const v = b.as(resolve(w.tensor), 'nhwc');
    const name = w.key;
    b.nodes.push({ op: 'Identity', inputs: [b.ref(v)], outputs: [name], name: `output_${name}` });
    outputs.push({ name, shape: v.shape });
    outputInfos.push({ name, elemType: v.dtype === 'int32' ? ONNX_INT64 : ONNX_FLOAT, dims: v.shape });
  }

  const graph: OnnxGraph = {
    name: 'converted',
    nodes: b.nodes,
    initializers: b.initializers,
    inputs: [{ name: placeholder.name, elemType: ONNX_FLOAT, dims: inputShape }],
    outputs: outputInfos,
    opset: OPSET,
    producer: `mocap-tfjs2onnx/${CONVERTER_VERSION}`,
  };
  return { onnx: encodeModel(graph), inputName: placeholder.name, inputShape, outputs, ops };
}

type Handler = (b: Builder, node: TfjsNode, inputs: Value[]) => Value;

function requireConst(v: Value, what: string, node: TfjsNode): ConstData {
  if (!v.constant) throw new Error(`${node.op} ${node.name}: ${what} must be a constant`);
  return v.constant;
}

function fusedActivation(b: Builder, node: TfjsNode, x: string, channels: number, extra: Value[]): string {
  const fused = (node.attr?.fused_ops?.list?.s ?? []).map(b64);
  const [first, act] = fused;
  if (first !== 'BiasAdd') throw new UnsupportedOpError(`${node.op}[${fused.join('+')}]`, node.name);
  switch (act) {
    case undefined:
      return x;
    case 'Relu':
      return b.node('Relu', [x]);
    case 'Relu6':
      return b.node('Clip', [x, b.scalarFloat(0), b.scalarFloat(6)], {}, 'relu6');
    case 'Prelu':
      return b.node('PRelu', [x, b.channelConst(extra[0], channels)]);
    case 'LeakyRelu': {
      const alpha = node.attr?.leakyrelu_alpha?.f ?? 0.2;
      return b.node('LeakyRelu', [x], { alpha: { float: alpha } });
    }
    case 'Elu':
      return b.node('Elu', [x]);
    case 'Sigmoid':
      return b.node('Sigmoid', [x]);
    case 'Tanh':
      return b.node('Tanh', [x]);
    default:
      throw new UnsupportedOpError(`${node.op}[${fused.join('+')}]`, node.name);
  }
}

function convLike(depthwise: boolean): Handler {
  return (b, node, inputs) => {
    const [x, filter, bias, ...extra] = inputs;
    const w = requireConst(filter, 'filter', node) as Float32Array;
    const [kh, kw, cin, m] = filter.shape; // conv: HWIO; depthwise: H W C multiplier
    const strides = ints(node.attr?.strides);
    const dil = ints(node.attr?.dilations);
    const sh = strides[1] ?? 1;
    const sw = strides[2] ?? 1;
    const dh = dil[1] ?? 1;
    const dw = dil[2] ?? 1;
    const format = b64(node.attr?.data_format?.s) || 'NHWC';
    if (format !== 'NHWC') throw new UnsupportedOpError(`${node.op}[${format}]`, node.name);
    const [, ih, iw] = x.shape;
    const padding = b64(node.attr?.padding?.s);
    let pads: number[];
    if (padding === 'SAME') {
      const [t, bo] = samePads(ih, kh, sh, dh);
      const [l, r] = samePads(iw, kw, sw, dw);
      pads = [t, l, bo, r];
    } else if (padding === 'VALID') pads = [0, 0, 0, 0];
    else if (padding === 'EXPLICIT') {
      const e = ints(node.attr?.explicit_paddings);
      pads = [e[2], e[4], e[3], e[5]];
    } else throw new UnsupportedOpError(`${node.op}[padding=${padding}]`, node.name);
    const oh = Math.floor((ih + pads[0] + pads[2] - (dh * (kh - 1) + 1)) / sh) + 1;
    const ow = Math.floor((iw + pads[1] + pads[3] - (dw * (kw - 1) + 1)) / sw) + 1;

    let weight: Float32Array;
    let wdims: number[];
    let cout: number;
    let group = 1;
    if (depthwise) {
      // [H, W, C, M] → [C*M, 1, H, W]
      cout = cin * m;
      weight = transposeData(w, [kh, kw, cin * m], [2, 0, 1]);
      wdims = [cout, 1, kh, kw];
      group = cin;
    } else {
      cout = m;
      weight = transposeData(w, [kh, kw, cin, m], [3, 2, 0, 1]);
      wdims = [cout, cin, kh, kw];
    }
    const convInputs = [b.ref(b.as(x, 'nchw')), b.floatInit(weight, wdims, 'W')];
    const hasBias = node.op.startsWith('_Fused') || node.op.startsWith('Fused');
    if (hasBias) {
      const bdata = requireConst(bias, 'bias', node) as Float32Array;
      convInputs.push(b.floatInit(Float32Array.from(bdata), [cout], 'B'));
    }
    let out = b.node(
      'Conv',
      convInputs,
      { kernel_shape: [kh, kw], strides: [sh, sw], dilations: [dh, dw], pads, group },
      'conv',
    );
    if (hasBias) out = fusedActivation(b, node, out, cout, extra);
    return { name: out, shape: [1, oh, ow, cout], layout: 'nchw', dtype: 'float32' };
  };
}

function elementwise(op: string): Handler {
  return (b, node, inputs) => {
    if (inputs.every((i) => i.constant)) return foldElementwise(op, node, inputs);
    const shape = inputs.map((i) => i.shape).reduce(broadcast);
    // Pick the layout: NCHW if any rank-4 runtime operand is NCHW.
    const layout: Layout =
      shape.length === 4 && inputs.some((i) => !i.constant && i.shape.length === 4 && i.layout === 'nchw')
        ? 'nchw'
        : 'nhwc';
    const names = inputs.map((i) => {
      if (i.constant && layout === 'nchw') {
        if (i.shape.length === 4) return b.ref({ ...i, layout: 'nchw' });
        const n = size(i.shape);
        return n === 1 ? b.ref({ ...i, shape: [] }) : b.channelConst(i, shape[3]);
      }
      if (layout === 'nchw' && i.shape.length !== 4)
        throw new Error(`${node.name}: cannot broadcast rank ${i.shape.length} in NCHW`);
      return b.ref(b.as(i, layout));
    });
    let out = names[0];
    for (let k = 1; k < names.length; k++) out = b.node(op, [out, names[k]]);
    return { name: out, shape, layout, dtype: 'float32' };
  };
}

function foldElementwise(op: string, node: TfjsNode, inputs: Value[]): Value {
  const [a, c] = inputs;
  if (
    inputs.length !== 2 ||
    (size(a.shape) !== size(c.shape) && size(c.shape) !== 1 && size(a.shape) !== 1)
  ) {
    throw new Error(`${node.name}: constant folding of ${op} supports equal shapes or scalars only`);
  }
  const n = Math.max(size(a.shape), size(c.shape));
  const A = a.constant!;
  const C = c.constant!;
  const out = a.dtype === 'int32' ? new Int32Array(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = A[A.length === 1 ? 0 : i];
    const y = C[C.length === 1 ? 0 : i];
    out[i] = op === 'Add' ? x + y : op === 'Sub' ? x - y : op === 'Mul' ? x * y : x / y;
  }
  return {
    name: node.name,
    shape: size(a.shape) >= size(c.shape) ? a.shape : c.shape,
    layout: 'nhwc',
    dtype: a.dtype,
    constant: out,
  };
}

function unary(op: string, attrs: (node: TfjsNode) => Record<string, AttrValue> = () => ({})): Handler {
  return (b, node, [x]) => ({ ...x, constant: undefined, name: b.node(op, [b.ref(x)], attrs(node)) });
}

const HANDLERS: Record<string, Handler> = {
  Identity: (_b, _node, [x]) => x,
  Conv2D: convLike(false),
  _FusedConv2D: convLike(false),
  DepthwiseConv2dNative: convLike(true),
  FusedDepthwiseConv2dNative: convLike(true),
  AddV2: elementwise('Add'),
  Add: elementwise('Add'),
  AddN: elementwise('Add'),
  Sub: elementwise('Sub'),
  Mul: elementwise('Mul'),
  RealDiv: elementwise('Div'),
  Relu: unary('Relu'),
  Sigmoid: unary('Sigmoid'),
  Tanh: unary('Tanh'),
  Relu6: (b, _node, [x]) => ({
    ...x,
    name: b.node('Clip', [b.ref(x), b.scalarFloat(0), b.scalarFloat(6)], {}, 'relu6'),
  }),
  Prelu: (b, node, [x, alpha]) => {
    if (x.layout === 'nchw' && x.shape.length === 4) {
      return { ...x, name: b.node('PRelu', [x.name, b.channelConst(alpha, x.shape[3])]) };
    }
    requireConst(alpha, 'alpha', node);
    return { ...x, name: b.node('PRelu', [b.ref(x), b.ref(alpha)]) };
  },
  MaxPool: (b, node, [x]) => {
    const k = ints(node.attr?.ksize);
    const s = ints(node.attr?.strides);
    const padding = b64(node.attr?.padding?.s);
    const [, ih, iw, c] = x.shape;
    let pads = [0, 0, 0, 0];
    if (padding === 'SAME') {
      const [t, bo] = samePads(ih, k[1], s[1], 1);
      const [l, r] = samePads(iw, k[2], s[2], 1);
      pads = [t, l, bo, r];
    } else if (padding !== 'VALID') throw new UnsupportedOpError(`MaxPool[padding=${padding}]`, node.name);
    const oh = Math.floor((ih + pads[0] + pads[2] - k[1]) / s[1]) + 1;
    const ow = Math.floor((iw + pads[1] + pads[3] - k[2]) / s[2]) + 1;
    const name = b.node('MaxPool', [b.ref(b.as(x, 'nchw'))], {
      kernel_shape: [k[1], k[2]],
      strides: [s[1], s[2]],
      pads,
    });
    return { name, shape: [1, oh, ow, c], layout: 'nchw', dtype: 'float32' };
  },
  Pad: (b, node, [x, paddings]) => {
    const p = Array.from(requireConst(paddings, 'paddings', node));
    const rank = x.shape.length;
    let begin = Array.from({ length: rank }, (_, i) => p[2 * i]);
    let end = Array.from({ length: rank }, (_, i) => p[2 * i + 1]);
    const shape = x.shape.map((d, i) => d + begin[i] + end[i]);
    if (rank === 4 && x.layout === 'nchw') {
      begin = NHWC_TO_NCHW.map((i) => begin[i]);
      end = NHWC_TO_NCHW.map((i) => end[i]);
    }
    const name = b.node('Pad', [b.ref(x), b.int64Init([...begin, ...end])], { mode: 'constant' });
    return { name, shape, layout: x.layout, dtype: x.dtype };
  },
  ResizeBilinear: resize('linear'),
  ResizeNearestNeighbor: resize('nearest'),
  DepthToSpace: (b, node, [x]) => {
    const bs = int(node.attr?.block_size);
    const [n, h, w, c] = x.shape;
    const name = b.node('DepthToSpace', [b.ref(b.as(x, 'nchw'))], { blocksize: bs, mode: 'DCR' });
    return { name, shape: [n, h * bs, w * bs, c / (bs * bs)], layout: 'nchw', dtype: 'float32' };
  },
  ConcatV2: (b, node, inputs) => {
    const axisV = inputs.pop()!;
    let axis = Number(requireConst(axisV, 'axis', node)[0]);
    const rank = inputs[0].shape.length;
    if (axis < 0) axis += rank;
    const shape = [...inputs[0].shape];
    shape[axis] = inputs.reduce((a, i) => a + i.shape[axis], 0);
    if (inputs.every((i) => i.constant)) {
      if (rank !== 1) throw new Error(`${node.name}: constant concat of rank ${rank}`);
      const data = inputs[0].dtype === 'int32' ? new Int32Array(shape[0]) : new Float32Array(shape[0]);
      let o = 0;
      for (const i of inputs) {
        data.set(i.constant!, o);
        o += i.constant!.length;
      }
      return { name: node.name, shape, layout: 'nhwc', dtype: inputs[0].dtype, constant: data };
    }
    const layout: Layout =
      rank === 4 && inputs.some((i) => !i.constant && i.layout === 'nchw') ? 'nchw' : 'nhwc';
    const onnxAxis = layout === 'nchw' ? NHWC_TO_NCHW.indexOf(axis) : axis;
    const name = b.node(
      'Concat',
      inputs.map((i) => b.ref(b.as(i, layout))),
      { axis: onnxAxis },
    );
    return { name, shape, layout, dtype: inputs[0].dtype };
  },
  Reshape: (b, node, [x, shapeV]) => {
    const target = Array.from(requireConst(shapeV, 'shape', node));
    const total = size(x.shape);
    const known = target.filter((d) => d >= 0).reduce((a, d) => a * d, 1);
    const shape = target.map((d) => (d < 0 ? total / known : d));
    if (x.constant) return { ...x, shape, layout: 'nhwc' };
    const name = b.node('Reshape', [b.ref(b.as(x, 'nhwc')), b.int64Init(shape)]);
    return { name, shape, layout: 'nhwc', dtype: x.dtype };
  },
  Squeeze: (b, node, [x]) => {
    let axes = ints(node.attr?.squeeze_dims);
    if (axes.length === 0) axes = x.shape.flatMap((d, i) => (d === 1 ? [i] : []));
    axes = axes.map((a) => (a < 0 ? a + x.shape.length : a));
    const shape = x.shape.filter((_, i) => !axes.includes(i));
    if (x.constant) return { ...x, shape, layout: 'nhwc' };
    const name = b.node('Reshape', [b.ref(b.as(x, 'nhwc')), b.int64Init(shape)]);
    return { name, shape, layout: 'nhwc', dtype: x.dtype };
  },
  Mean: (b, node, [x, axesV]) => {
    const rank = x.shape.length;
    const axes = Array.from(requireConst(axesV, 'axes', node)).map((a) => (a < 0 ? a + rank : a));
    const keep = bool(node.attr?.keep_dims);
    const shape = keep
      ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d))
      : x.shape.filter((_, i) => !axes.includes(i));
    // Spatial mean of an NCHW tensor without keep_dims gives [N, C] in both layouts.
    if (
      rank === 4 &&
      x.layout === 'nchw' &&
      !keep &&
      axes.length === 2 &&
      axes.includes(1) &&
      axes.includes(2)
    ) {
      const name = b.node('ReduceMean', [x.name], { axes: [2, 3], keepdims: 0 });
      return { name, shape, layout: 'nhwc', dtype: 'float32' };
    }
    const name = b.node('ReduceMean', [b.ref(b.as(x, 'nhwc'))], { axes, keepdims: keep ? 1 : 0 });
    return { name, shape, layout: 'nhwc', dtype: 'float32' };
  },
  MatMul: matmul,
  _FusedMatMul: matmul,
  Shape: (_b, node, [x]) => ({
    name: node.name,
    shape: [x.shape.length],
    layout: 'nhwc',
    dtype: 'int32',
    constant: Int32Array.from(x.shape),
  }),
  StridedSlice: (b, node, [x, beginV, endV, stridesV]) => {
    const begin = Array.from(requireConst(beginV, 'begin', node));
    const end = Array.from(requireConst(endV, 'end', node));
    const strides = Array.from(requireConst(stridesV, 'strides', node));
    const a = node.attr ?? {};
    const [bm, em, sm] = [int(a.begin_mask), int(a.end_mask), int(a.shrink_axis_mask)];
    if (int(a.ellipsis_mask) || int(a.new_axis_mask))
      throw new UnsupportedOpError('StridedSlice[ellipsis/new_axis]', node.name);
    const rank = x.shape.length;
    const starts: number[] = [];
    const ends: number[] = [];
    const steps: number[] = [];
    const outShape: number[] = [];
    for (let d = 0; d < rank; d++) {
      const dim = x.shape[d];
      const step = d < strides.length ? strides[d] : 1;
      let s = d < begin.length && !(bm & (1 << d)) ? begin[d] : step > 0 ? 0 : dim - 1;
      let e = d < end.length && !(em & (1 << d)) ? end[d] : step > 0 ? dim : -dim - 1;
      if (s < 0) s += dim;
      if (e < 0 && !(d >= end.length || em & (1 << d))) e += dim;
      if (sm & (1 << d)) e = s + 1;
      s = Math.max(0, Math.min(dim, s));
      e = step > 0 ? Math.max(0, Math.min(dim, e)) : Math.max(-1, Math.min(dim - 1, e));
      starts.push(s);
      ends.push(e);
      steps.push(step);
      const len = Math.max(0, Math.ceil((e - s) / step));
      if (!(sm & (1 << d))) outShape.push(len);
    }
    if (x.constant && rank === 1) {
      const out: number[] = [];
      for (let i = starts[0]; steps[0] > 0 ? i < ends[0] : i > ends[0]; i += steps[0])
        out.push(x.constant[i]);
      const data = x.dtype === 'int32' ? Int32Array.from(out) : Float32Array.from(out);
      return { name: node.name, shape: outShape, layout: 'nhwc', dtype: x.dtype, constant: data };
    }
    const sliced = b.node('Slice', [
      b.ref(b.as(x, 'nhwc')),
      b.int64Init(starts),
      b.int64Init(ends.map((e) => (e === -1 ? -(2 ** 31) : e))),
      b.int64Init(x.shape.map((_, i) => i)),
      b.int64Init(steps),
    ]);
    const name = b.node('Reshape', [sliced, b.int64Init(outShape)]);
    return { name, shape: outShape, layout: 'nhwc', dtype: x.dtype };
  },
  Pack: (b, node, inputs) => {
    const axis = int(node.attr?.axis);
    if (inputs.every((i) => i.constant && i.shape.length === 0) && axis === 0) {
      const data =
        inputs[0].dtype === 'int32' ? new Int32Array(inputs.length) : new Float32Array(inputs.length);
      inputs.forEach((i, k) => {
        data[k] = i.constant![0];
      });
      return {
        name: node.name,
        shape: [inputs.length],
        layout: 'nhwc',
        dtype: inputs[0].dtype,
        constant: data,
      };
    }
    const shape = [...inputs[0].shape];
    shape.splice(axis, 0, inputs.length);
    const parts = inputs.map((i) => b.node('Unsqueeze', [b.ref(b.as(i, 'nhwc')), b.int64Init([axis])]));
    const name = b.node('Concat', parts, { axis });
    return { name, shape, layout: 'nhwc', dtype: inputs[0].dtype };
  },
};

function resize(mode: 'linear' | 'nearest'): Handler {
  return (b, node, [x, sizeV]) => {
    const [h, w] = Array.from(requireConst(sizeV, 'size', node));
    const align = bool(node.attr?.align_corners);
    const half = bool(node.attr?.half_pixel_centers);
    const attrs: Record<string, AttrValue> = { mode };
    if (mode === 'linear') {
      attrs.coordinate_transformation_mode = align ? 'align_corners' : half ? 'half_pixel' : 'asymmetric';
    } else {
      attrs.coordinate_transformation_mode = align
        ? 'align_corners'
        : half
          ? 'tf_half_pixel_for_nn'
          : 'asymmetric';
      attrs.nearest_mode = align || half ? 'round_prefer_ceil' : 'floor';
    }
    const [n, , , c] = x.shape;
    const name = b.node('Resize', [b.ref(b.as(x, 'nchw')), '', '', b.int64Init([n, c, h, w])], attrs);
    return { name, shape: [n, h, w, c], layout: 'nchw', dtype: 'float32' };
  };
}

function matmul(b: Builder, node: TfjsNode, inputs: Value[]): Value {
  const [a, w, bias, ...extra] = inputs;
  const ta = bool(node.attr?.transpose_a);
  const tb = bool(node.attr?.transpose_b);
  if (a.shape.length !== 2) throw new UnsupportedOpError(`${node.op}[rank ${a.shape.length}]`, node.name);
  const wd = requireConst(w, 'weights', node) as Float32Array;
  const n = tb ? w.shape[0] : w.shape[1];
  const gemmInputs = [b.ref(a), b.floatInit(Float32Array.from(wd), w.shape, 'W')];
  if (node.op === '_FusedMatMul')
    gemmInputs.push(b.floatInit(Float32Array.from(requireConst(bias, 'bias', node)), [n], 'B'));
  let out = b.node('Gemm', gemmInputs, { transA: ta ? 1 : 0, transB: tb ? 1 : 0 });
  if (node.op === '_FusedMatMul') out = fusedActivation(b, node, out, n, extra);
  return { name: out, shape: [ta ? a.shape[1] : a.shape[0], n], layout: 'nhwc', dtype: 'float32' };
}

/** The TF ops this converter translates. */
export const SUPPORTED_OPS = Object.freeze([...Object.keys(HANDLERS), 'Const', 'Placeholder'].sort());
