import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { ansiSpans } from '../../lib/ansi';

const LINE_HEIGHT = 18;

function Line({ text }: { text: string }) {
  const spans = useMemo(() => ansiSpans(text), [text]);
  return (
    <>
      {spans.map((span, index) => (
        <span key={index} className={span.className || undefined}>
          {span.text}
        </span>
      ))}
      {spans.length === 0 && ' '}
    </>
  );
}

/**
 * Terminal output with its colours, as text spans (never HTML from the output). Long logs are
 * virtualized; `highlight` marks the first failure and scrolls it into view.
 */
export function AnsiLog({
  text,
  highlight = -1,
  label,
  maxHeight = 420,
}: {
  text: string;
  highlight?: number;
  label: string;
  maxHeight?: number;
}) {
  const lines = useMemo(() => text.replace(/\r\n/g, '\n').split('\n'), [text]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
  });
  useEffect(() => {
    if (highlight >= 0) virtualizer.scrollToIndex(highlight, { align: 'center' });
  }, [highlight, virtualizer]);
  return (
    <div
      ref={scroller}
      className="ansi-log"
      style={{ height: Math.min(maxHeight, lines.length * LINE_HEIGHT + 8) }}
      tabIndex={0}
      role="log"
      aria-label={label}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.index}
            className={`ansi-line${item.index === highlight ? ' first-failure-line' : ''}`}
            data-first-failure={item.index === highlight ? 'true' : undefined}
            style={{ transform: `translateY(${item.start}px)`, height: LINE_HEIGHT }}
          >
            <Line text={lines[item.index] ?? ''} />
          </div>
        ))}
      </div>
    </div>
  );
}
