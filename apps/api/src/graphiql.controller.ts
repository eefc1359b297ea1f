import { Controller, Get, Header } from '@nestjs/common';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

/**
 * GraphiQL served from one self-contained page: Apollo's landing page and the usual playgrounds load
 * from CDNs, which this product must not depend on.
 */
@Controller()
export class GraphiqlController {
  private page?: string;

  @Get('graphiql')
  @Header('content-type', 'text/html; charset=utf-8')
  graphiql(): string {
    this.page ??= renderGraphiQL({
      endpoint: '/graphql',
      subscriptionsProtocol: 'WS',
      title: 'scopegraph GraphiQL',
      defaultQuery: '{\n  health {\n    ok\n    neo4j { version edition indexes { name type state } }\n    redis { version }\n    queues { name waiting active failed }\n  }\n}\n',
    } as Parameters<typeof renderGraphiQL>[0]);
    return this.page;
  }
}
