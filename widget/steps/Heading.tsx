import { useEffect, useRef } from "preact/hooks";

// The first step's heading is not focused: inside an iframe that would scroll the host page.
let opened = false;

/** Each later step's heading takes focus when it opens, so keyboard and screen-reader users follow along. */
export function Heading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (opened) ref.current?.focus();
    opened = true;
  }, [children]);
  return (
    <h2 ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}
