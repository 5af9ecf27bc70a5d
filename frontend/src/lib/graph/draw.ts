// Canvas 2D label and hover drawing that follows the theme (sigma's own
// hover box is always white, unreadable with the dark theme's light text).
import type { GraphTheme } from './theme';

export interface LabelData {
  x: number;
  y: number;
  size: number;
  label: string | null;
}

export interface LabelSettings {
  labelSize: number;
  labelFont: string;
  labelWeight: string;
}

const MAX_LABEL = 48;

/** Long labels are cut with an ellipsis so they do not cover the graph. */
export function clipLabel(label: string, max = MAX_LABEL): string {
  return label.length > max ? label.slice(0, max - 1).trimEnd() + '…' : label;
}

export function makeDrawLabel(getTheme: () => GraphTheme) {
  return (ctx: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings): void => {
    if (!data.label) return;
    const theme = getTheme();
    const text = clipLabel(data.label);
    ctx.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
    const x = data.x + data.size + 3;
    const y = data.y + settings.labelSize / 3;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = theme.bg;
    ctx.strokeText(text, x, y);
    ctx.fillStyle = theme.text;
    ctx.fillText(text, x, y);
  };
}

export function makeDrawHover(getTheme: () => GraphTheme) {
  const drawLabel = makeDrawLabel(getTheme);
  return (ctx: CanvasRenderingContext2D, data: LabelData, settings: LabelSettings): void => {
    const theme = getTheme();
    const size = settings.labelSize;
    ctx.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const pad = 3;
    const text = data.label ? clipLabel(data.label) : '';
    const width = text ? ctx.measureText(text).width + 8 : 0;
    const r = Math.max(data.size, size / 2) + pad;
    ctx.fillStyle = theme.surface;
    ctx.strokeStyle = theme.accent;
    ctx.lineWidth = 1.5;
    ctx.shadowColor = theme.dark ? 'rgba(0,0,0,0.6)' : 'rgba(0,0,0,0.25)';
    ctx.shadowBlur = 8;
    ctx.beginPath();
    if (text) {
      const h = size + 2 * pad;
      ctx.roundRect(data.x - r, data.y - h / 2, r * 2 + width, h, h / 2);
    } else {
      ctx.arc(data.x, data.y, r, 0, Math.PI * 2);
    }
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.stroke();
    // The node itself is drawn again by sigma's hover layer; the label on top.
    if (text) {
      ctx.fillStyle = theme.text;
      ctx.fillText(text, data.x + data.size + 3, data.y + size / 3);
    } else {
      drawLabel(ctx, data, settings);
    }
  };
}
