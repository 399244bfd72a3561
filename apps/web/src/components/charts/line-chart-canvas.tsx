import { LineChart as EchartsLine } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import type { LineChartProps } from './line-chart-types';
import { useChartCanvas } from './use-chart-canvas';

use([EchartsLine, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** The echarts implementation; only ever loaded through the lazy `LineChart`. */
export default function LineChartCanvas({ categories, series, height = 320 }: LineChartProps) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0, data: series.map((item) => item.name) },
      grid: { left: 40, right: 16, top: 16, bottom: 48 },
      xAxis: { type: 'category', boundaryGap: false, data: categories },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((item) => ({ name: item.name, type: 'line', smooth: true, data: item.values })),
    }),
    [categories, series],
  );
  const containerRef = useChartCanvas(option);
  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
