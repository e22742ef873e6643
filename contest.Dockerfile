# A class contest on Linux's walls from any laptop (docs/contest-container.md): Docker or Podman runs this
# image in a Linux VM on macOS and Windows, where the strategy lab has no walls of its own.
#   docker build -f contest.Dockerfile -t amoeboid-contest .
#   docker run --rm -v "$PWD/class:/class:ro" -v "$HOME/contest.seed:/secret/contest.seed:ro" -v "$PWD/out:/out" \
#       amoeboid-contest tournament /class --games 100 --seed-file /secret/contest.seed --out /out/results.csv
FROM python:3.11-slim
COPY . /src
RUN pip install --no-cache-dir -c /src/requirements/constraints.txt /src && rm -rf /src \
    && useradd --create-home scorer
# not root: the walls are built for an ordinary user, and a strategy gains nothing from the container's root
USER scorer
WORKDIR /home/scorer
ENTRYPOINT ["amoeboid"]
CMD ["--help"]
