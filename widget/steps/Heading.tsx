import { useEffect, useRef } from "preact/hooks";

/** Each step's heading takes focus when the step opens, so keyboard and screen-reader users follow along. */
export function Heading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [children]);
  return (
    <h2 ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}
