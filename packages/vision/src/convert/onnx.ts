import { ProtoWriter } from './protobuf.ts';

/**
 * An in-memory ONNX graph and its encoder to the ONNX protobuf (onnx.proto3 field numbers).
 * Only what the converter emits: float32/int64 tensors, scalar and list attributes.
 */

export const ONNX_FLOAT = 1;
export const ONNX_INT32 = 6;
export const ONNX_INT64 = 7;

export type AttrValue =
  | number
  | string
  | number[]
  | { floats: number[] }
  | { int: number }
  | { float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attrs?: Record<string, AttrValue>;
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: typeof ONNX_FLOAT | typeof ONNX_INT64 | typeof ONNX_INT32;
  data: Float32Array | BigInt64Array | Int32Array;
}

export interface OnnxValueInfo {
  name: string;
  elemType: number;
  /** -1 or a string for a symbolic dimension. */
  dims: (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  opset: number;
  producer: string;
  docString?: string;
}

function writeTensor(w: ProtoWriter, t: OnnxTensor): void {
  // TensorProto: dims=1, data_type=2, name=8, raw_data=9
  w.packedInts(1, t.dims);
  w.int(2, t.dataType);
  w.string(8, t.name);
  w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function writeAttr(w: ProtoWriter, name: string, value: AttrValue): void {
  // AttributeProto: name=1, f=2, i=3, s=4, floats=7, ints=8, type=20
  w.string(1, name);
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name}: use {float: x} for non-integers`);
    w.int(3, value).int(20, 2);
  } else if (typeof value === 'string') {
    w.string(4, value).int(20, 3);
  } else if (Array.isArray(value)) {
    w.packedInts(8, value).int(20, 7);
  } else if ('floats' in value) {
    w.packedFloats(7, value.floats).int(20, 6);
  } else if ('float' in value) {
    w.float(2, value.float).int(20, 1);
  } else {
    w.int(3, value.int).int(20, 2);
  }
}

function writeValueInfo(w: ProtoWriter, v: OnnxValueInfo): void {
  // ValueInfoProto: name=1, type=2; TypeProto.tensor_type=1; Tensor: elem_type=1, shape=2;
  // TensorShapeProto.dim=1; Dimension: dim_value=1, dim_param=2
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, v.elemType);
      tensor.message(2, (shape) => {
        for (const d of v.dims) {
          shape.message(1, (dim) => {
            if (typeof d === 'string') dim.string(2, d);
            else if (d >= 0) dim.int(1, d);
            else dim.string(2, 'N');
          });
        }
      });
    }),
  );
}

/** Encodes a ModelProto (IR version 8). */
export function encodeModel(graph: OnnxGraph): Uint8Array {
  const w = new ProtoWriter();
  // ModelProto: ir_version=1, producer_name=2, producer_version=3, doc_string=6, graph=7, opset_import=8
  w.int(1, 8);
  w.string(2, graph.producer);
  w.string(3, '1');
  if (graph.docString) w.string(6, graph.docString);
  w.message(7, (g) => {
    // GraphProto: node=1, name=2, initializer=5, input=11, output=12
    for (const n of graph.nodes) {
      g.message(1, (node) => {
        // NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
        for (const i of n.inputs) node.string(1, i);
        for (const o of n.outputs) node.string(2, o);
        node.string(3, n.name);
        node.string(4, n.op);
        for (const [k, v] of Object.entries(n.attrs ?? {})) node.message(5, (a) => writeAttr(a, k, v));
      });
    }
    g.string(2, graph.name);
    for (const t of graph.initializers) g.message(5, (tw) => writeTensor(tw, t));
    for (const i of graph.inputs) g.message(11, (vw) => writeValueInfo(vw, i));
    for (const o of graph.outputs) g.message(12, (vw) => writeValueInfo(vw, o));
  });
  w.message(8, (op) => {
    op.string(1, '');
    op.int(2, graph.opset);
  });
  return w.finish();
}
