import React, { useState } from "react";
import { Button } from "./ui/button";
import * as api from "../api";

export interface ListProps {
  items: string[];
  onPick?: (item: string) => void;
}

/** Shows a list of items and remembers the last one picked. */
export function List({ items, onPick }: ListProps) {
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <ul className="list">
      {items.map((item) => (
        <li key={item}>
          <Button onClick={() => { setPicked(item); onPick?.(item); }}>{item}</Button>
        </li>
      ))}
      {picked && <Footer text={picked} />}
    </ul>
  );
}

const Footer = ({ text }: { text: string }) => <footer>{text}</footer>;

export default class Panel extends React.Component<ListProps> {
  render() {
    return <List items={this.props.items} />;
  }

  async refresh(): Promise<void> {
    await api.reload(this.props.items);
  }
}
