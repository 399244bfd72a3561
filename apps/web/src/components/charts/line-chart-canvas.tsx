import { LineChart as EchartsLine } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type ECharts, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { LineChartProps } from './line-chart-types';

use([EchartsLine, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** The echarts implementation; only ever loaded through the lazy `LineChart`. */
export default function LineChartCanvas({ categories, series, height = 320 }: LineChartProps) {
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
    chartRef.current?.setOption(
      {
        tooltip: { trigger: 'axis' },
        legend: { bottom: 0, data: series.map((item) => item.name) },
        grid: { left: 40, right: 16, top: 16, bottom: 48 },
        xAxis: { type: 'category', boundaryGap: false, data: categories },
        yAxis: { type: 'value', minInterval: 1 },
        series: series.map((item) => ({ name: item.name, type: 'line', smooth: true, data: item.values })),
      },
      { notMerge: true },
    );
  }, [categories, series]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
