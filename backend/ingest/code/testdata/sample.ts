/**
 * Graph storage for the workbench.
 */
import * as path from "node:path";
import fs, { readFileSync } from "fs";
import { Node, Edge } from "./model";
import type { Options } from "./options";
export { rank } from "./rank";

export const MAX_DEPTH = 8;
const cache = new Map<string, Node>();

/** A store that can be closed. */
export interface Closer {
  close(): Promise<void>;
}

/**
 * Reads nodes by id.
 */
export interface Reader extends Closer {
  read(id: string): Node | undefined;
  readonly size: number;
  list(prefix?: string): Node[];
}

export type NodeId = string | number;

export enum Color {
  Red,
  Green = "green",
}

// Base class for stores.
export abstract class Store implements Reader {
  protected abstract load(id: string): Node | undefined;

  read(id: string): Node | undefined {
    return cache.get(id) ?? this.load(id);
  }

  list(prefix?: string): Node[] {
    return [...cache.values()].filter((n) => n.id.startsWith(prefix ?? ""));
  }

  get size(): number {
    return cache.size;
  }

  async close(): Promise<void> {}
}

/** Stores nodes in a folder. */
export class FileStore extends Store {
  #root: string;
  private opts: Options;

  constructor(root: string, opts: Options) {
    super();
    this.#root = root;
    this.opts = opts;
  }

  protected load(id: string): Node | undefined {
    const file = path.join(this.#root, `${id}.json`);
    const text = readFileSync(file, "utf8");
    return parseNode(text);
  }

  private static edgesOf(n: Node): Edge[] {
    return n.edges.map((e) => ({ ...e }));
  }
}

export function parseNode(text: string): Node {
  const raw = JSON.parse(text);
  function check(x: unknown): void {
    if (!x) throw new Error("empty node");
  }
  check(raw);
  return raw as Node;
}

export const walk = async (store: Reader, id: NodeId, depth = MAX_DEPTH): Promise<Node[]> => {
  const n = store.read(String(id));
  return n ? [n] : [];
};

const helper = function (x: number) {
  return x * 2;
};

export default function open(dir: string): FileStore {
  return new FileStore(dir, { strict: true });
}
